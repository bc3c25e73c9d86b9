import type { Kysely } from 'kysely';

// Append-only: never edit a migration after it has landed; add a new file instead.
// Service tokens become `selector.secret`: a row is keyed by the selector, which sorts by time
// (see newSplitToken), and holds only the secret's hash. Rows issued before keep their key, the
// hash of the whole token, and no verifier; they are still accepted until they expire.
// Going down leaves tokens issued since unusable (their key is not a hash): their services
// sign in again.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('service_tokens').renameColumn('token_hash', 'token_key').execute();
  await db.schema.alterTable('service_tokens').addColumn('verifier_hash', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.deleteFrom('service_tokens' as never).where('verifier_hash' as never, 'is not', null).execute();
  await db.schema.alterTable('service_tokens').dropColumn('verifier_hash').execute();
  await db.schema.alterTable('service_tokens').renameColumn('token_key', 'token_hash').execute();
}
