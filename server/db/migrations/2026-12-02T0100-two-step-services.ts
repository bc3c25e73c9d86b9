import { sql, type Kysely } from 'kysely';

/** Services that take only sign-ins made with two steps (a code as well as the password). None did before. */
// Append-only: never edit a migration after it has landed; add a new file instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_services').addColumn('require_two_step', 'integer', (c) => c.notNull().defaultTo(sql`0`)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_services').dropColumn('require_two_step').execute();
}
