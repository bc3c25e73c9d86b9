import type SqliteDatabase from 'better-sqlite3';
import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type Dialect, type SqliteDialectConfig } from 'kysely';
import { DatabaseProblem } from './database-problems';

// SQLite's own busy handler waits inside the statement, so on the event loop: while the admin CLI
// or a sqlite3 shell held the write lock, every request stood still, reads too. The connection
// waits 0 ms instead, and the wait happens here, on timers, between tries.
const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 100;

export const isBusy = (error: unknown) => typeof (error as { code?: unknown } | null)?.code === 'string' && (error as { code: string }).code.startsWith('SQLITE_BUSY');

export type BusyWait = <T>(attempt: () => T | Promise<T>) => Promise<T>;

/**
 * Runs `attempt` again, after a pause, while SQLite answers that another process holds the lock,
 * for up to `waitMs`. Only what failed whole may run again: a statement outside a transaction, or
 * a transaction that failed as it began. A failure inside a transaction is left to its caller.
 */
export function busyWait(sqlite: SqliteDatabase.Database, waitMs: number): BusyWait {
  return async (attempt) => {
    const deadline = Date.now() + waitMs;
    for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
      try {
        return await attempt();
      } catch (error) {
        if (!isBusy(error) || sqlite.inTransaction) throw error;
        if (Date.now() + pause > deadline) {
          throw new DatabaseProblem(`another process has held the SQLite database's write lock for over ${waitMs / 1000} s (the admin command, a sqlite3 shell, a backup tool?)`, true);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  };
}

/**
 * Kysely's SQLite dialect with its queries waiting (on timers) while another process holds the
 * lock. Its transactions begin IMMEDIATE, taking the write lock first, so that a transaction is
 * refused before it has done anything, never halfway.
 */
export function waitingSqliteDialect(sqlite: SqliteDatabase.Database, config: SqliteDialectConfig, wait: BusyWait): Dialect {
  const dialect = new SqliteDialect(config);
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => new ImmediateSqliteDriver({ ...config, onCreateConnection: async (connection) => waitWhenBusy(connection, sqlite, wait) }),
  };
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/**
 * Kysely's one SQLite connection runs a statement synchronously and throws at once when it fails,
 * so the first try costs nothing more; only a statement refused for the lock goes on to wait.
 */
function waitWhenBusy(connection: DatabaseConnection, sqlite: SqliteDatabase.Database, wait: BusyWait): void {
  const execute = connection.executeQuery.bind(connection);
  connection.executeQuery = <R>(query: CompiledQuery) => {
    try {
      return execute<R>(query);
    } catch (error) {
      if (!isBusy(error) || sqlite.inTransaction) throw error;
      return wait(() => execute<R>(query));
    }
  };
}
