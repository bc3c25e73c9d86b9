import { setTimeout as sleep } from 'node:timers/promises';
import type SqliteDatabase from 'better-sqlite3';
import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type Dialect, type SqliteDialectConfig } from 'kysely';
import { workSlots } from '../operations/work-slots';
import { DatabaseProblem } from './database-problems';

// SQLite's own busy handler waits inside the statement, so on the event loop: while the admin CLI
// or a sqlite3 shell held the write lock, every request stood still, reads too. The connection
// waits 0 ms instead, and the wait happens here, on timers, between tries.
const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 100;

export const isBusy = (error: unknown) => typeof (error as { code?: unknown } | null)?.code === 'string' && (error as { code: string }).code.startsWith('SQLITE_BUSY');

/** Runs `attempt`, and again after each `pause` while another process holds the lock. */
export type BusyWait = <T>(attempt: () => T | Promise<T>, pause?: (ms: number) => Promise<void>) => Promise<T>;

/**
 * Runs `attempt` again, after a pause, while SQLite answers that another process holds the lock,
 * for up to `waitMs`. Only what failed whole may run again: a statement outside a transaction, or
 * a transaction that failed as it began. A failure inside a transaction is left to its caller.
 */
export function busyWait(sqlite: SqliteDatabase.Database, waitMs: number): BusyWait {
  return async (attempt, pause = sleep) => {
    const deadline = Date.now() + waitMs;
    for (let pauseMs = FIRST_PAUSE_MS; ; pauseMs = Math.min(pauseMs * 2, LONGEST_PAUSE_MS)) {
      try {
        return await attempt();
      } catch (error) {
        if (!isBusy(error) || sqlite.inTransaction) throw error;
        if (Date.now() + pauseMs > deadline) {
          throw new DatabaseProblem(`another process has held the SQLite database's write lock for over ${waitMs / 1000} s (the admin command, a sqlite3 shell, a backup tool?)`, true);
        }
      }
      await pause(pauseMs);
    }
  };
}

/** Kysely's SQLite dialect, its one connection lent by a `WaitingSqliteDriver`. */
export function waitingSqliteDialect(sqlite: SqliteDatabase.Database, config: SqliteDialectConfig, wait: BusyWait): Dialect {
  const dialect = new SqliteDialect(config);
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => new WaitingSqliteDriver(config, sqlite, wait),
  };
}

/**
 * Kysely's SQLite driver lends its one connection to one query or transaction at a time. Here a
 * statement refused for the lock waits on timers, and gives the connection back while it pauses,
 * so that other queries (reads above all) run meanwhile instead of queueing behind it: a statement
 * waits only outside a transaction, holding nothing in SQLite. Transactions begin IMMEDIATE,
 * taking the write lock first, so that a transaction is refused before it has done anything, never
 * halfway.
 */
class WaitingSqliteDriver extends SqliteDriver {
  readonly #turns = workSlots(1);
  readonly #sqlite: SqliteDatabase.Database;
  readonly #wait: BusyWait;
  #connection: DatabaseConnection | undefined;

  constructor(config: SqliteDialectConfig, sqlite: SqliteDatabase.Database, wait: BusyWait) {
    super(config);
    this.#sqlite = sqlite;
    this.#wait = wait;
  }

  override async init(): Promise<void> {
    await super.init();
    // The base driver's connection, lent from now on in this driver's own turns.
    const connection = await super.acquireConnection();
    await super.releaseConnection();
    this.#connection = this.#waitingWhenBusy(connection);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    await this.#turns.take();
    return this.#connection!;
  }

  override async releaseConnection(): Promise<void> {
    this.#turns.give();
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  /**
   * SQLite ends a transaction itself on some failures (a full disk, an I/O error, no memory). A
   * ROLLBACK after one failed with "no transaction is active", and Kysely threw that instead of
   * the failure: a full disk was a 500 with a stack, not the 503 it is.
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.#sqlite.inTransaction) await super.rollbackTransaction(connection);
  }

  /**
   * The connection runs a statement synchronously and throws at once when it fails, so the first
   * try costs nothing more; only a statement refused for the lock goes on to wait.
   */
  #waitingWhenBusy(connection: DatabaseConnection): DatabaseConnection {
    const execute = connection.executeQuery.bind(connection);
    const pauseOutOfTurn = async (ms: number) => {
      this.#turns.give();
      await sleep(ms);
      await this.#turns.take();
    };
    connection.executeQuery = <R>(query: CompiledQuery) => {
      try {
        return execute<R>(query);
      } catch (error) {
        if (!isBusy(error) || this.#sqlite.inTransaction) throw error;
        return this.#wait(() => execute<R>(query), pauseOutOfTurn);
      }
    };
    return connection;
  }
}
