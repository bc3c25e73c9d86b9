import type { Kysely } from 'kysely';

/**
 * How far the hourly prune has gone: one row at most (id is always 1), the time it last took for
 * "now". A clock stepped far ahead would otherwise have the next prune delete, for good, every
 * session and audit event it reads as expired; from this row the prune moves on a day at a time.
 */
// Append-only: never edit a migration after it has landed; add a new file instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pruned_through')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('pruned_through').execute();
}
