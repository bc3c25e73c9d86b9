import type { Kysely } from 'kysely';

// Append-only: never edit a migration after it has landed; add a new file instead.
// First-party refresh tokens become `selector.secret` too (see the service tokens' migration
// before this one): rows are keyed by the selector and hold the secret's hash; a parent or a
// successor is named by its key. Rows from before keep the whole token's hash as their key and
// no verifier. Going down leaves sessions whose live token is newer signed out.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').renameColumn('token_hash', 'token_key').execute();
  await db.schema.alterTable('refresh_tokens').renameColumn('parent_hash', 'parent_key').execute();
  await db.schema.alterTable('refresh_tokens').addColumn('verifier_hash', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.deleteFrom('refresh_tokens' as never).where('verifier_hash' as never, 'is not', null).execute();
  await db.schema.alterTable('refresh_tokens').dropColumn('verifier_hash').execute();
  await db.schema.alterTable('refresh_tokens').renameColumn('parent_key', 'parent_hash').execute();
  await db.schema.alterTable('refresh_tokens').renameColumn('token_key', 'token_hash').execute();
}
