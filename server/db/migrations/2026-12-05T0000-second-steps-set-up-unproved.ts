import { sql, type Kysely } from 'kysely';

/**
 * Which authenticator apps were set up while the account's email was unproved: only those are
 * turned off by a reset by mail. Since 2026-12-04 none can be (setting one up waits for a proved
 * email), so the apps of accounts unproved now are marked as such; that takes in the few whose
 * email an administrator changed, which nothing here tells apart. From now on an app set up on a
 * proved email stays unmarked when an administrator changes the email.
 */
// Append-only: never edit a migration after it has landed; add a new file instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('authenticator_apps').addColumn('set_up_unproved', 'integer', (c) => c.notNull().defaultTo(sql`0`)).execute();
  await sql`update authenticator_apps set set_up_unproved = 1 where user_id in (select id from users where email_verified = 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('authenticator_apps').dropColumn('set_up_unproved').execute();
}
