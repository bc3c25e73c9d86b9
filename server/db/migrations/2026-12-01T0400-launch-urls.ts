import type { Kysely } from 'kysely';

/** Where people open a service (its home page): Home lists the services a person may use that have one. */
// Append-only: never edit a migration after it has landed; add a new file instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_services').addColumn('launch_url', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_services').dropColumn('launch_url').execute();
}
