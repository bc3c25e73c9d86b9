import type SqliteDatabase from 'better-sqlite3';
import type { QueryResult, SqliteDatabase as KyselySqliteDatabase } from 'kysely';
import type { Database } from './database';
import type { BusyWait } from './sqlite-busy';

/** SQLite's one connection, for running compiled hot-path queries without Kysely's executor. */
export type DirectSqlite = {
  /** Runs one statement now, shaped as Kysely's SQLite driver shapes its result. */
  execute<O>(sql: string, parameters: readonly unknown[]): QueryResult<O>;
  /** Runs `work` as one transaction, synchronously: nothing else can run inside it. */
  transaction<T>(work: () => T): T;
};

// Registered for the top-level Kysely instance only: its transactions are other objects, so a query
// run on a transaction keeps going through Kysely, inside that transaction.
const handles = new WeakMap<Database, { sqlite: SqliteDatabase.Database; direct: DirectSqlite; wait: BusyWait }>();

export function registerDirectSqlite(db: Database, sqlite: SqliteDatabase.Database, statements: KyselySqliteDatabase, wait: BusyWait): void {
  const execute = <O>(sql: string, parameters: readonly unknown[]): QueryResult<O> => {
    const statement = statements.prepare(sql);
    if (statement.reader) return { rows: statement.all(parameters) as O[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  };
  // One transaction wrapper for all grants, running whatever work it is handed (better-sqlite3
  // builds a wrapper per call of sqlite.transaction). IMMEDIATE takes the write lock first: held by
  // another process, the transaction is refused before its work has run, and can run again whole.
  const inTransaction = sqlite.transaction((work: () => unknown) => work());
  handles.set(db, { sqlite, wait, direct: { execute, transaction: <T>(work: () => T) => inTransaction.immediate(work) as T } });
}

/**
 * The direct connection when `db` is the SQLite database and no transaction is open on it.
 * Kysely's driver holds the one connection across awaits while a transaction is open: a statement
 * run directly then would join that transaction (and be rolled back with it). With none open,
 * a synchronous statement or transaction runs whole before anything else can.
 */
export function directSqlite(db: Database): DirectSqlite | undefined {
  const handle = handles.get(db);
  return handle && !handle.sqlite.inTransaction ? handle.direct : undefined;
}

/**
 * Runs `work` on the direct connection: at once when no transaction is open, otherwise after it,
 * holding Kysely's connection so that no other query runs meanwhile; again, after a pause, while
 * another process holds the lock (sqlite-busy.ts). Undefined when `db` is not the SQLite database
 * (PostgreSQL, or a Kysely transaction).
 */
export async function onDirectSqlite<T>(db: Database, work: (direct: DirectSqlite) => T): Promise<T | undefined> {
  const handle = handles.get(db);
  if (!handle) return undefined;
  return handle.wait(() => (handle.sqlite.inTransaction ? db.connection().execute(async () => work(handle.direct)) : work(handle.direct)));
}
