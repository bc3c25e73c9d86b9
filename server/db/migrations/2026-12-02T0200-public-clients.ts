import { sql, type Kysely } from 'kysely';

/** Public clients (RFC 6749 §2.1): services with no secret, which must use PKCE. Every service had a secret before. */
// Append-only: never edit a migration after it has landed; add a new file instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_services').addColumn('public_client', 'integer', (c) => c.notNull().defaultTo(sql`0`)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_services').dropColumn('public_client').execute();
}
