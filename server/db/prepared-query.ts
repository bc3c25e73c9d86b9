import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import type { Database } from './database';
import { directSqlite, onDirectSqlite, type DirectSqlite } from './direct-sqlite';
import { isBusy } from './sqlite-busy';

// Stands in for a value while the query is compiled, and only then: run-time values are bound by
// position, never written into SQL.
const PLACEHOLDER = '\u0000placeholder:';

/** Names a value bound at run time; typed as whatever the query expects there. */
export type Placeholder = <T>(name: string) => T;

type Prepared<O> = { compiled: CompiledQuery<O>; bind: (values: Record<string, unknown>) => unknown[] };

// Every SQL text compiled here: PostgreSQL runs these as named statements (postgres-named-statements.ts).
const compiledSql = new Set<string>();
export const isPreparedSql = (sql: string) => compiledSql.has(sql);

/**
 * A query built and compiled once per SQL dialect, then run with fresh values bound. Kysely
 * rebuilds and recompiles its syntax tree on every call: on userinfo that was a quarter of the
 * event loop's time. For the hot paths only; everything else stays plain Kysely.
 */
export function preparedQuery<O>(build: (db: Database, value: Placeholder) => Compilable<O>) {
  // Keyed by the dialect's adapter class: the same SQL serves a database and its transactions.
  const byDialect = new WeakMap<object, Prepared<O>>();
  const preparedFor = (db: Database) => {
    const dialect = db.getExecutor().adapter.constructor;
    let prepared = byDialect.get(dialect);
    if (!prepared) byDialect.set(dialect, (prepared = prepare(db, build)));
    return prepared;
  };
  /** Runs the statement on SQLite's direct connection, synchronously (inside a DirectSqlite transaction). */
  const now = (db: Database, direct: DirectSqlite, values: Record<string, unknown>): QueryResult<O> => {
    const prepared = preparedFor(db);
    return direct.execute<O>(prepared.compiled.sql, prepared.bind(values));
  };
  const run = async (db: Database, values: Record<string, unknown>): Promise<QueryResult<O>> => {
    // On SQLite, outside a transaction, the statement runs at once: Kysely's executor around a
    // synchronous driver was a third of a token grant's garbage (a connection lease per query).
    const direct = directSqlite(db);
    if (direct) {
      try {
        return now(db, direct, values);
      } catch (error) {
        // Another process holds the lock: wait for it on timers, not on the event loop.
        if (!isBusy(error)) throw error;
        return (await onDirectSqlite(db, (again) => now(db, again, values)))!;
      }
    }
    const prepared = preparedFor(db);
    return db.executeQuery({ ...prepared.compiled, parameters: prepared.bind(values) });
  };
  return Object.assign(run, { now });
}

/**
 * Prepared queries that differ only in how many of something they take (rows inserted, keys
 * matched): each count is compiled once, the first time it is used.
 */
export function preparedQueryPerCount<O>(build: (db: Database, value: Placeholder, count: number) => Compilable<O>) {
  const byCount = new Map<number, ReturnType<typeof preparedQuery<O>>>();
  return (count: number) => {
    let query = byCount.get(count);
    if (!query) byCount.set(count, (query = preparedQuery((db, value) => build(db, value, count))));
    return query;
  };
}

function prepare<O>(db: Database, build: (db: Database, value: Placeholder) => Compilable<O>): Prepared<O> {
  const names = new Set<string>();
  const compiled = build(db, <T>(name: string) => {
    names.add(name);
    return `${PLACEHOLDER}${name}` as T;
  }).compile();
  // A placeholder Kysely wrote into the SQL text, or dropped, would silently bind nothing.
  if (compiled.sql.includes(PLACEHOLDER)) throw new Error(`a placeholder was inlined into: ${compiled.sql}`);
  const bound = compiled.parameters.map((parameter) => (typeof parameter === 'string' && parameter.startsWith(PLACEHOLDER) ? parameter.slice(PLACEHOLDER.length) : undefined));
  const missing = [...names].filter((name) => !bound.includes(name));
  if (missing.length > 0) throw new Error(`placeholders not bound as parameters: ${missing.join(', ')}`);
  const parameters = compiled.parameters;
  compiledSql.add(compiled.sql);
  return {
    compiled,
    bind: (values) =>
      bound.map((name, at) => {
        if (name === undefined) return parameters[at];
        const value = values[name];
        if (value === undefined) throw new Error(`no value for placeholder ${name}`);
        return value;
      }),
  };
}

/** A row of placeholders named after its columns (prefixed when one statement inserts several rows). */
export function placeholderRow<R>(value: Placeholder, columns: ReadonlyArray<keyof R & string>, prefix = ''): R {
  return Object.fromEntries(columns.map((column) => [column, value(`${prefix}${column}`)])) as R;
}

/** The values a placeholderRow binds: an optional column left out is null. */
export function rowValues<R>(row: R, columns: ReadonlyArray<keyof R & string>, prefix = '', into: Record<string, unknown> = {}): Record<string, unknown> {
  for (const column of columns) into[`${prefix}${column}`] = row[column] ?? null;
  return into;
}

/** The first row, as Kysely's executeTakeFirst gives it. */
export const firstRow = <O>(result: QueryResult<O>): O | undefined => result.rows[0];
/** How many rows an update or delete changed. */
export const changedRows = (result: QueryResult<unknown>): number => Number(result.numAffectedRows ?? 0n);
