import type { Pool, PoolClient } from 'pg';
import { DatabaseProblem, postgresConnectionProblem, postgresQueryProblem, QUERY_READ_TIMEOUT } from './database-problems';

/** How long a request waits for a PostgreSQL connection, new or from the pool, before it is refused. */
export const POSTGRES_CONNECT_TIMEOUT_MS = 10_000;

/**
 * How long a query waits for PostgreSQL's answer on a connection it has: a server that stops
 * answering (paused, or cut off without a reset) held the request, and its connection, for ever.
 * Longer than LOCK_WAIT_MS, so a wait for a lock is refused as that first.
 */
export const POSTGRES_QUERY_TIMEOUT_MS = 10_000;

/**
 * How long a statement waits for a lock that another process (SQLite) or session (PostgreSQL)
 * holds, such as a transaction left open in a sqlite3 or psql shell, before it is refused (503).
 */
export const LOCK_WAIT_MS = 5_000;

// SQLite result codes (and their extended forms) that say the file cannot be used for now: locked
// by another process (inside a transaction; outside one, sqlite-busy.ts waits), full, failing to
// read or write, or read-only.
const SQLITE_OUTAGE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|READONLY|CANTOPEN|NOMEM|PROTOCOL)(_|$)/;

/**
 * Why the database cannot answer for now, in the operator's words, if that is why `error` was
 * thrown: the operator fixes it (or it passes) and the request may be sent again, so it is a
 * 503, not a bug's 500. PostgreSQL failures arrive named by `watchPostgresFailures`.
 */
export function databaseOutage(error: unknown): string | undefined {
  if (error instanceof DatabaseProblem) return error.message;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && SQLITE_OUTAGE.test(code)) return `SQLite could not use the database file: ${String(message)} (${code})`;
  return undefined;
}

/**
 * Failures to connect, and queries that fail because the server or the connection did, become
 * DatabaseProblems that name the server (pg's errors name an address, or nothing).
 */
export function watchPostgresFailures(pool: Pool, address: string): void {
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  pool.connect = ((...args: unknown[]) =>
    args.length > 0
      ? connect(...args)
      : (connect() as Promise<unknown>).catch((error: unknown) => {
          throw postgresConnectionProblem(error, address);
        })) as typeof pool.connect;
  pool.on('connect', (client: PoolClient) => {
    // A connection that drops while its client is checked out makes pg emit 'error' on the client,
    // which would end the process with nobody listening. The query on it fails (and is answered
    // 503), and the pool discards the client when it is released.
    client.on('error', () => {});
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const result = query(...args);
      // A callback, or a submittable such as a cursor, is answered as pg answers it.
      if (!(result instanceof Promise)) return result;
      return result.catch((error: unknown) => {
        // pg answers the caller but leaves the connection waiting for the late answer: it is ended,
        // so the pool drops it instead of lending it again.
        if ((error as Error | undefined)?.message === QUERY_READ_TIMEOUT) (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
        throw postgresQueryProblem(error, address);
      });
    }) as PoolClient['query'];
  });
}
