import { sql, type Kysely } from 'kysely';

/**
 * An account keeps its picture's path, not its whole address (avatars.ts): an address stored with
 * the PUBLIC_URL of its upload broke once PUBLIC_URL moved, to https or to another name.
 */
// Append-only: never edit a migration after it has landed; add a new file instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ id: string; profile_picture: string }>`select id, profile_picture from users where profile_picture is not null`.execute(db);
  for (const { id, profile_picture: stored } of rows) {
    const at = stored.indexOf('/avatars/');
    if (at > 0) await sql`update users set profile_picture = ${stored.slice(at)} where id = ${id}`.execute(db);
  }
}

// The origin the addresses had is not kept. Code from before this migration gives services the
// path alone until each picture is uploaded again; the app itself shows them as before.
export async function down(): Promise<void> {}
