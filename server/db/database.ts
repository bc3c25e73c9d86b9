import { chmodSync, closeSync, openSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteAdapter, sql, type Migration, type MigrationResultSet } from 'kysely';
import { LOCK_WAIT_MS, POSTGRES_CONNECT_TIMEOUT_MS, POSTGRES_QUERY_TIMEOUT_MS, watchPostgresFailures } from './database-outage';
import { checkWritable, DatabaseProblem, describePostgres, makeDataDir, migrationProblem, sqliteOpenProblem } from './database-problems';
import { registerDirectSqlite } from './direct-sqlite';
import { migrations } from './migrations/index';
import { useNamedStatements } from './postgres-named-statements';
import { withStatementCache } from './statement-cache';
import { busyWait, waitingSqliteDialect } from './sqlite-busy';
import { scheduleWalCheckpoints } from './wal-checkpoints';
import type { DB } from './schema';

export type Database = Kysely<DB>;
export type Dialect = 'sqlite' | 'postgres';

export type OpenedDatabase = { db: Database; dialect: Dialect; location: string };

/** Runs `work` in a transaction: `db` itself when it is one already (a caller's), else a new one. */
export const inTransaction = <T>(db: Database, work: (tx: Database) => Promise<T>): Promise<T> => (db.isTransaction ? work(db) : db.transaction().execute(work));

// pg returns bigint (int8) as text to avoid precision loss; our bigints are epoch milliseconds
// and counts, far below 2^53, so numbers are safe and keep both dialects' rows alike.
const INT8_OID = 20;

/** The PostgreSQL driver, loaded only when PostgreSQL is configured (4 MB a SQLite install keeps). */
function loadPg(): typeof import('pg') {
  return createRequire(import.meta.url)('pg') as typeof import('pg');
}

/** The SQLite database file in a data directory. */
export const sqliteFile = (dataDir: string) => path.join(dataDir, 'home-guard.db');

/** Opens the configured database: PostgreSQL when a URL is given, else SQLite in dataDir. */
export function openDatabase(options: { databaseUrl: string | undefined; dataDir: string; postgresConnectTimeoutMs?: number; postgresQueryTimeoutMs?: number; lockWaitMs?: number }): OpenedDatabase {
  const lockWaitMs = options.lockWaitMs ?? LOCK_WAIT_MS;
  if (options.databaseUrl) {
    const pg = loadPg();
    const types = {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    };
    // A server that stops answering (paused, or cut off by the network) must not hold requests for
    // ever, whether they wait for a connection or for a query's answer on one.
    const connectionTimeoutMillis = options.postgresConnectTimeoutMs ?? POSTGRES_CONNECT_TIMEOUT_MS;
    const queryTimeout = options.postgresQueryTimeoutMs ?? POSTGRES_QUERY_TIMEOUT_MS;
    // A statement waiting on another session's lock would hold its connection for ever, and ten of
    // them every request: lock_timeout refuses it instead (a 503, database-problems.ts).
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, types, connectionTimeoutMillis, lock_timeout: lockWaitMs, query_timeout: queryTimeout });
    // An idle client that loses its connection must not crash the process.
    pool.on('error', () => {});
    useNamedStatements(pool);
    const { location, address } = describePostgres(options.databaseUrl);
    watchPostgresFailures(pool, address);
    return { db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres', location };
  }
  makeDataDir(options.dataDir);
  const file = sqliteFile(options.dataDir);
  checkWritable(options.dataDir, file);
  const sqlite = openSqlite(file);
  const checkpoints = scheduleWalCheckpoints(sqlite);
  const database = withStatementCache(sqlite, () => checkpoints.stop());
  const wait = busyWait(sqlite, lockWaitMs);
  const db = new Kysely<DB>({ dialect: waitingSqliteDialect(sqlite, { database }, wait) });
  registerDirectSqlite(db, sqlite, database, wait);
  return { db, dialect: 'sqlite', location: file };
}

function openSqlite(file: string): SqliteDatabase.Database {
  let sqlite: SqliteDatabase.Database | undefined;
  try {
    keepToOwner(file);
    sqlite = new SqliteDatabase(file);
    // Opening may wait here for another process's lock: nothing is served yet.
    sqlite.pragma(`busy_timeout = ${LOCK_WAIT_MS}`);
    sqlite.pragma('journal_mode = WAL');
    // In WAL mode NORMAL survives a process crash; only a power loss may drop the last commits.
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    // SQLite's own default page cache, 2 MB; better-sqlite3 raises it to 16 MB, which the token
    // tables fill within a minute of writes. The operating system caches the file behind it, and
    // the benchmark is no slower: 5–6 MB less resident memory.
    sqlite.pragma('cache_size = -2000');
    // From here on a statement never waits inside SQLite, on the event loop: sqlite-busy.ts waits on timers.
    sqlite.pragma('busy_timeout = 0');
    // SQLite's own lower() folds ASCII only: a search for 'émile' would miss 'Émile' (searches
    // lower both sides, sql-search.ts). No index is built on lower(), so replacing it is safe.
    sqlite.function('lower', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value));
    return sqlite;
  } catch (error) {
    sqlite?.close();
    throw sqliteOpenProblem(error, file);
  }
}

/**
 * Runs every pending migration; safe when several replicas start at once (Kysely locks).
 * `list` is for tests.
 */
export async function migrateToLatest(db: Database, list: Record<string, Migration> = migrations): Promise<void> {
  const migrate = async (on: Database) => {
    await renameLandedMigrations(on);
    return new Migrator({ db: on, provider: { getMigrations: async () => list } }).migrateToLatest();
  };
  const { error, results } = db.getExecutor().adapter instanceof SqliteAdapter ? await inOneSqliteTransaction(db, migrate) : await migrate(db);
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    if (error instanceof DatabaseProblem) throw error;
    const newer = migrationProblem(error);
    if (newer) throw newer;
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`database migration${failed ? ` ${failed.migrationName}` : ''} failed: ${reason}`);
  }
}

/**
 * Migrations renamed after they had landed, against the rule (index.ts), by their old name: a
 * database migrated before records that one, and the Migrator would take it for a newer version's.
 */
const RENAMED_MIGRATIONS: Record<string, string> = { '2026-12-01T0300-user-groups': '2026-12-01T0300-groups' };

/** Gives a migration recorded under an old name its new one; idempotent, so replicas starting at once may both do it. */
async function renameLandedMigrations(db: Database): Promise<void> {
  if (!(await db.introspection.getTables({ withInternalKyselyTables: true })).some((table) => table.name === 'kysely_migration')) return;
  const records = db.withTables<{ kysely_migration: { name: string } }>();
  for (const [before, after] of Object.entries(RENAMED_MIGRATIONS)) await records.updateTable('kysely_migration').set({ name: after }).where('name', '=', before).execute();
}

const RETRY_EVERY_MS = 2_000;

/**
 * Migrates once PostgreSQL answers: started beside it (a compose stack), the server may find it
 * refusing connections, or starting up, for its first seconds. A problem that does not pass by
 * itself (a refused login, a missing database, SQLite) stops the start at once, as does one
 * still there after `waitSeconds`. `say` is told once that the server is waiting, and why.
 */
export async function migrateWhenReachable(db: Database, waitSeconds: number, say: (line: string) => void): Promise<void> {
  const deadline = Date.now() + waitSeconds * 1000;
  for (let told = false; ; told = true) {
    try {
      await migrateToLatest(db);
      return;
    } catch (error) {
      if (!(error instanceof DatabaseProblem && error.passing) || Date.now() + RETRY_EVERY_MS > deadline) throw error;
      if (!told) say(`${error.message}; trying again every ${RETRY_EVERY_MS / 1000} s for up to ${waitSeconds} s (DATABASE_WAIT)`);
      await new Promise((resolve) => setTimeout(resolve, RETRY_EVERY_MS));
    }
  }
}

/**
 * Kysely runs SQLite migrations outside a transaction, each statement committed by itself: a
 * process killed inside a migration of several statements left it half done and unrecorded, and
 * every later start failed on it (a column already there). SQLite's DDL is transactional, so
 * the pending migrations go in whole or not at all. IMMEDIATE takes the write lock first: a
 * second process (the admin CLI) waits for this one instead of migrating alongside it.
 */
async function inOneSqliteTransaction(db: Database, migrate: (on: Database) => Promise<MigrationResultSet>): Promise<MigrationResultSet> {
  return db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    let outcome: MigrationResultSet | undefined;
    try {
      outcome = await migrate(connection);
    } finally {
      await sql.raw(outcome && !outcome.error ? 'commit' : 'rollback').execute(connection);
    }
    return outcome;
  });
}

export const toFlag = (value: boolean): 0 | 1 => (value ? 1 : 0);

/**
 * The database file readable and writable by its owner only, made so before SQLite creates it
 * (an empty file is a new database to SQLite), and its -wal and -shm files with it, which SQLite
 * creates with the database file's mode. Files of an older install are narrowed too.
 */
function keepToOwner(file: string): void {
  try {
    closeSync(openSync(file, 'a', 0o600));
  } catch {
    // a directory in its place, or no right to it: SQLite's own refusal names the problem
  }
  for (const part of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if ((statSync(part).mode & 0o077) !== 0) chmodSync(part, 0o600);
    } catch {
      // not there, or another user's file this process may still write: left as it is
    }
  }
}
