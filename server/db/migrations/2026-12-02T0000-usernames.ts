import { sql, type Kysely } from 'kysely';
import { firstFreeUsername, usernameFromEmail } from '../../accounts/usernames';

/**
 * Usernames, which services such as Gitea read from `preferred_username`: everyone already there
 * gets one made from their email, the oldest account first.
 */
// Append-only: never edit a migration after it has landed; add a new file instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('username', 'text').execute();
  const { rows } = await sql<{ id: string; email: string }>`select id, email from users order by created_at, id`.execute(db);
  const taken = new Set<string>();
  for (const { id, email } of rows) {
    const username = firstFreeUsername(usernameFromEmail(email), (name) => taken.has(name));
    taken.add(username);
    await sql`update users set username = ${username} where id = ${id}`.execute(db);
  }
  await db.schema.createIndex('users_username').unique().on('users').column('username').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_username').execute();
  await db.schema.alterTable('users').dropColumn('username').execute();
}
