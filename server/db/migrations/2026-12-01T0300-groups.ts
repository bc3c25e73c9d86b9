import { sql, type Kysely } from 'kysely';

/**
 * Groups, as JSON arrays of names: the ones an administrator puts a user in (services read them
 * from the `groups` claim), and the ones a service lets in (none: everyone).
 */
// Append-only: never edit a migration after it has landed; add a new file instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('groups', 'text', (c) => c.notNull().defaultTo(sql`'[]'`)).execute();
  await db.schema.alterTable('api_services').addColumn('allowed_groups', 'text', (c) => c.notNull().defaultTo(sql`'[]'`)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_services').dropColumn('allowed_groups').execute();
  await db.schema.alterTable('users').dropColumn('groups').execute();
}
