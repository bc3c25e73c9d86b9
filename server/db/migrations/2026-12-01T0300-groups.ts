import { sql, type Kysely } from 'kysely';

/** The groups an administrator puts a user in, as a JSON array of names; services read them from the `groups` claim. */
// Append-only: never edit a migration after it has landed; add a new file instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('groups', 'text', (c) => c.notNull().defaultTo(sql`'[]'`)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('groups').execute();
}
