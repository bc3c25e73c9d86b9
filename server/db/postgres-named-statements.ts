import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryConfig, QueryResult } from 'pg';
import { isPreparedSql } from './prepared-query';

// When a named statement cannot be used on a connection, the query runs unnamed there instead:
// 0A000, PostgreSQL refuses a cached statement whose rows changed shape (a column added by a newer
// replica's migration to a table it selects `*` from); 26000 and 42P05, the server side lost or
// already has the statement (DISCARD ALL, or a pooler such as PgBouncer swapping connections).
const CANNOT_USE_NAMED = new Set(['0A000', '26000', '42P05']);

type Query = (config: QueryConfig) => Promise<QueryResult>;

/** The statement's name: the same SQL gets the same name on every connection. */
const statementName = (sql: string) => `hg_${createHash('sha256').update(sql).digest('base64url').slice(0, 22)}`;

/**
 * Runs the queries compiled once (preparedQuery) as named prepared statements, so PostgreSQL
 * parses and plans each once per connection instead of on every call. Everything else, and any
 * statement PostgreSQL has declared stale on a connection, runs unnamed as before.
 */
export function useNamedStatements(pool: Pool): void {
  pool.on('connect', (client: PoolClient) => {
    const original = client.query.bind(client) as (...args: unknown[]) => unknown;
    const stale = new Set<string>();
    const asNamed = async (text: string, values: unknown[]) => {
      const name = statementName(text);
      if (stale.has(name)) return original(text, values);
      try {
        return await (original as Query)({ name, text, values });
      } catch (error) {
        if (!CANNOT_USE_NAMED.has((error as { code?: string }).code ?? '')) throw error;
        stale.add(name);
        return original(text, values);
      }
    };
    client.query = ((...args: unknown[]) => {
      const [text, values] = args;
      if (args.length === 2 && typeof text === 'string' && Array.isArray(values) && isPreparedSql(text)) return asNamed(text, values);
      return original(...args);
    }) as PoolClient['query'];
  });
}
