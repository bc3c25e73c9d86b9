import type { Kysely } from 'kysely';

/**
 * The Idempotency-Key a service was created with: sent again after an answer that was lost, it
 * finds the service instead of creating a second one. Unique; services made before have none.
 */
// Append-only: never edit a migration after it has landed; add a new file instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_services').addColumn('creation_key', 'text').execute();
  await db.schema.createIndex('api_services_creation_key').unique().on('api_services').column('creation_key').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('api_services_creation_key').execute();
  await db.schema.alterTable('api_services').dropColumn('creation_key').execute();
}
