import type { Kysely } from 'kysely';

/**
 * How many of a throttle key's counted sign-in attempts are still being judged, on any replica:
 * the owner's success forgets the key's failures but those, which may yet turn out failures.
 * Counted in each process before, a success on one replica forgot the guesses another was judging.
 */
// Append-only: never edit a migration after it has landed; add a new file instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('throttle').addColumn('judging', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('throttle').dropColumn('judging').execute();
}
