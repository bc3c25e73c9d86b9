import type { Kysely } from 'kysely';

/**
 * The claim of the first administrator: one row at most (id is always 1), written in the same
 * transaction as the account. Two registrations racing on a fresh install both find no
 * administrator; only one of them can write this row. Installs that have an administrator need
 * none: a claim is made only while no administrator exists. No foreign key: it is a record.
 */
// Append-only: never edit a migration after it has landed; add a new file instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('first_administrator')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('first_administrator').execute();
}
