import type { Kysely } from 'kysely';

/**
 * A sign-in reads the person's latest sessions, newest first, to tell a new device from one seen
 * before: this index gives them in order, where the one on user_id alone sorted all of them. It
 * serves every lookup by user_id as well, so that one goes.
 */
// Append-only: never edit a migration after it has landed; add a new file instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('user_sessions_user_id_issued_at').on('user_sessions').columns(['user_id', 'issued_at']).execute();
  await db.schema.dropIndex('user_sessions_user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('user_sessions_user_id').on('user_sessions').column('user_id').execute();
  await db.schema.dropIndex('user_sessions_user_id_issued_at').execute();
}
