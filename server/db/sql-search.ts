import { sql, type RawBuilder } from 'kysely';

/**
 * `lower(column) LIKE '%search%'` with the search's own wildcards escaped, the same in SQLite
 * and PostgreSQL (SQLite has no LIKE escape character unless one is named).
 */
export function contains(column: string, search: string): RawBuilder<boolean> {
  const pattern = `%${search.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

export const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const totalPages = (count: number, size: number) => Math.ceil(count / size);
