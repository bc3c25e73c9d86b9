import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { maskedUrl } from '../masked-url';

/**
 * A database problem the operator fixes (a path, a permission, an address, a version), not a
 * bug: its message is one line that names the file or the server, and never a password.
 */
export class DatabaseProblem extends Error {
  constructor(
    message: string,
    /** It may pass by itself: PostgreSQL not answering, starting, or out of connections, not a refused login or a missing database. */
    readonly passing = false,
  ) {
    super(message);
    this.name = 'DatabaseProblem';
  }
}

/**
 * Creates the data directory, or says which one could not be made and why. Only its owner may
 * enter it: the database holds the signing keys, password hashes and two-step secrets.
 */
export function makeDataDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new DatabaseProblem(`cannot create the data directory ${dataDir}: ${whyNoDirectory(dataDir, error)}`);
  }
}

/**
 * The path in the way of a directory: Node's recursive mkdir names only its own failure (ENOENT on
 * a read-only disk, EEXIST for a file that is a parent), which sent the operator looking for a
 * path that was missing, or for the wrong file.
 */
function whyNoDirectory(dataDir: string, error: unknown): string {
  let existing = path.resolve(dataDir);
  while (!existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  if (!statSync(existing).isDirectory()) return `${existing} is a file, not a directory`;
  if (!canWrite(existing)) return `${existing} cannot be written (a read-only disk, or its owner and permissions)`;
  return codeOrMessage(error);
}

/**
 * Refuses a database this process could open but not write. SQLite would open it read-only
 * without a word, and every write would fail later; in WAL mode it also creates the -wal and
 * -shm files beside the database, so the directory must be writable too.
 */
export function checkWritable(dataDir: string, file: string): void {
  if (!canWrite(dataDir)) throw new DatabaseProblem(`cannot write the data directory ${dataDir} (SQLite keeps its -wal and -shm files beside the database): check its owner and permissions`);
  for (const existing of [file, `${file}-wal`, `${file}-shm`].filter((name) => existsSync(name))) {
    if (!canWrite(existing)) throw new DatabaseProblem(`cannot write the database file ${existing}: check its owner and permissions`);
  }
}

function canWrite(name: string): boolean {
  try {
    accessSync(name, constants.R_OK | constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** SQLite's own messages ("file is not a database", "unable to open database file") do not say which file. */
export function sqliteOpenProblem(error: unknown, file: string): DatabaseProblem {
  return new DatabaseProblem(`cannot open the database ${file}: ${codeOrMessage(error)}`);
}

/**
 * DATABASE_URL without its password, and the server it names, for log lines and errors. It is read
 * by hand where it is no WHATWG URL: a socket directory instead of a host
 * (postgres://user@/db?host=/run/postgresql), which pg takes.
 */
export function describePostgres(databaseUrl: string): { location: string; address: string } {
  const location = maskedUrl(databaseUrl);
  const url = URL.canParse(databaseUrl) ? new URL(databaseUrl) : undefined;
  const host = url?.hostname || new URLSearchParams(databaseUrl.split('?')[1] ?? '').get('host') || 'localhost';
  return { location, address: `${host}:${url?.port || '5432'}` };
}

// SQLSTATE classes the operator fixes in DATABASE_URL or on the PostgreSQL server: 28, the user
// or password was refused; 3D000, no such database.
const REFUSED_BY_POSTGRES = /^(28|3D000)/;

// Node's code for a failed socket: ECONNREFUSED, ECONNRESET, EAI_AGAIN (a name not yet known)…
const SOCKET_ERROR = /^E[A-Z_]+$/;

// Node's codes for a TLS certificate it would not trust: self-signed, an unknown CA, expired, or another name.
const CERTIFICATE_REFUSED = /^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(GET_ISSUER_CERT(_LOCALLY)?|VERIFY_LEAF_SIGNATURE)|CERT_(HAS_EXPIRED|NOT_YET_VALID|UNTRUSTED)|ERR_TLS_CERT_ALTNAME_INVALID)$/;

/**
 * pg's connection failures say "connect ECONNREFUSED 10.0.0.5:5432", or only the refusal: the
 * same failure named as the operator reads it, as is a server that cannot take one now.
 */
export function postgresConnectionProblem(error: unknown, address: string): unknown {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  // pg-pool's words when connectionTimeoutMillis passes: no connection came free, or the server did not answer.
  if (message === 'timeout exceeded when trying to connect') return new DatabaseProblem(`no connection to PostgreSQL at ${address} came free in time: every connection of the pool is busy`, true);
  if (message === 'Connection terminated due to connection timeout') return new DatabaseProblem(`cannot connect to PostgreSQL at ${address}: it did not answer in time`, true);
  // DATABASE_URL's sslmode asks for TLS (pg reads require as verify-full), and the server has none, or a certificate Node will not trust.
  if (message === 'The server does not support SSL connections') {
    return new DatabaseProblem(`PostgreSQL at ${address} does not take TLS connections, which DATABASE_URL's sslmode asks for: remove sslmode from DATABASE_URL, or turn ssl on in postgresql.conf`);
  }
  if (typeof code === 'string' && CERTIFICATE_REFUSED.test(code)) {
    return new DatabaseProblem(`cannot connect to PostgreSQL at ${address}: its TLS certificate is not trusted (${code}); name its CA with sslrootcert=/path/to/ca.pem in DATABASE_URL, or, on a network you trust, sslmode=no-verify`);
  }
  if (typeof code !== 'string') return postgresQueryProblem(error, address);
  // The server not up yet, or its name not yet known (a container starting beside this one).
  if (SOCKET_ERROR.test(code)) return new DatabaseProblem(`cannot connect to PostgreSQL at ${address}: ${code}`, true);
  if (REFUSED_BY_POSTGRES.test(code)) return new DatabaseProblem(`PostgreSQL at ${address} refused the connection: ${(error as Error).message}`);
  return postgresQueryProblem(error, address);
}

// PostgreSQL SQLSTATEs of a server that cannot serve queries for now: class 08, the connection
// failed; class 53, out of disk, memory or connections; class 57, an operator's intervention
// (shutting down, starting, a query cancelled or past statement_timeout); 25006, read-only (a
// standby reached before a failover's new primary, or a read-only default).
const POSTGRES_OUTAGE = /^(08|53|57)[0-9A-Z]{3}$|^25006$/;

// lock_not_available: past lock_timeout (database.ts), or a NOWAIT, which no query here asks for.
const LOCK_TIMEOUT = '55P03';

/** pg's words when a query's query_timeout passes (database-outage.ts ends its connection). */
export const QUERY_READ_TIMEOUT = 'Query read timeout';

// What pg says, with no SQLSTATE or socket error code, of a connection that broke under a query.
const POSTGRES_CONNECTION_LOST = /^Connection terminated|not queryable/;

/** A failed PostgreSQL query as an outage (a DatabaseProblem) when the server or the connection is at fault. */
export function postgresQueryProblem(error: unknown, address: string): unknown {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === LOCK_TIMEOUT) return new DatabaseProblem(`PostgreSQL at ${address}: another session has held a lock this request needs for longer than lock_timeout (an open transaction in psql?) (SQLSTATE ${code})`, true);
  if (typeof code === 'string' && POSTGRES_OUTAGE.test(code)) return new DatabaseProblem(`PostgreSQL at ${address} cannot serve queries now: ${String(message)} (SQLSTATE ${code})`, true);
  if (typeof code === 'string' && SOCKET_ERROR.test(code)) return new DatabaseProblem(`lost the connection to PostgreSQL at ${address}: ${code}`, true);
  if (typeof message === 'string' && POSTGRES_CONNECTION_LOST.test(message)) return new DatabaseProblem(`lost the connection to PostgreSQL at ${address}: ${message}`, true);
  if (message === QUERY_READ_TIMEOUT) return new DatabaseProblem(`PostgreSQL at ${address} did not answer a query in time`, true);
  return error;
}

/** Kysely's complaint about an applied migration this version does not have: the database is newer. */
export function migrationProblem(error: unknown): DatabaseProblem | undefined {
  const unknown = /previously executed migration (\S+) is missing/.exec(error instanceof Error ? error.message : '');
  return unknown ? new DatabaseProblem(`this database was made by a newer Home Guard (migration ${unknown[1]} is unknown): upgrade Home Guard or restore a backup`) : undefined;
}

function codeOrMessage(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  return typeof message === 'string' ? message : String(error);
}
