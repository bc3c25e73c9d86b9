import type { Kysely } from 'kysely';

/**
 * The secret Home Guard gave a person to set up an authenticator app, until a code made from it
 * turns two-step sign-in on: turning on takes only a secret the server chose (ASVS 2.8.3), never
 * one the client picked. One per person; a new setup replaces it.
 */
// Append-only: never edit a migration after it has landed; add a new file instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('authenticator_app_setups')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('authenticator_app_setups').execute();
}
