import { sql, type Kysely } from 'kysely';

/**
 * Whether the authorization request named its redirect_uri (it may be left out when the service
 * has one): if it did, the token request must repeat it (RFC 6749 §4.1.3). Codes already there
 * live a minute at most; they are taken to have named it.
 */
// Append-only: never edit a migration after it has landed; add a new file instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oauth_codes').addColumn('redirect_uri_sent', 'integer', (c) => c.notNull().defaultTo(sql`1`)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oauth_codes').dropColumn('redirect_uri_sent').execute();
}
