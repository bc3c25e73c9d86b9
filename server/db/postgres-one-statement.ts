import { PostgresAdapter, sql, type RawBuilder } from 'kysely';
import type { Database } from './database';
import type { Placeholder } from './prepared-query';

// On PostgreSQL every statement is a round trip to another process on the same cores, and a
// transaction adds two (BEGIN, COMMIT). The hot write paths that claim a single-use row (a code,
// a refresh token) and then write what it grants run there as one statement instead: data-modifying
// WITH clauses that all depend on the claim, so a lost race still changes nothing. A statement is
// its own transaction. SQLite, in process, keeps the plain transaction.

/** The type PostgreSQL must read each bound column as (in VALUES it would guess text); every column, or it does not compile. */
export type ColumnTypes<R> = Record<keyof R & string, 'text' | 'bigint'>;

/**
 * `insert into table (…) select … from (values (…), …)`, inserting only when the WITH clause
 * `guard` returned a row. Row `at`'s values are bound from placeholders named `${prefix(at)}${column}`.
 */
export function insertWhen<R>(value: Placeholder, table: string, types: ColumnTypes<R>, count: number, prefix: (at: number) => string, guard: string) {
  const columns = Object.entries(types) as Array<[string, string]>;
  const names = sql.join(columns.map(([name]) => sql.id(name)));
  const rows = Array.from({ length: count }, (_, at) => sql`(${sql.join(columns.map(([name, type]) => sql`cast(${value(`${prefix(at)}${name}`)} as ${sql.raw(type)})`))})`);
  return sql`insert into ${sql.table(table)} (${names}) select * from (values ${sql.join(rows)}) as v (${names}) where exists (select 1 from ${sql.table(guard)})`;
}

/** preparedQuery compiles a query builder; a raw statement is compiled against the database it runs on. */
export const rawStatement = <O>(db: Database, raw: RawBuilder<O>) => ({ compile: () => raw.compile(db) });

/** Whether this database (or transaction) is PostgreSQL. */
export const isPostgres = (db: Database) => db.getExecutor().adapter instanceof PostgresAdapter;
