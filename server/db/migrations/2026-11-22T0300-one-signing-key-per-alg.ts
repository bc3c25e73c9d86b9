import { sql, type Kysely } from 'kysely';

// Append-only: never edit a migration after it has landed; add a new file instead.
// Replicas starting together on an empty database each created their own signing keys; from
// now on the database allows one key in use per algorithm, and the loser of the race adopts
// the winner's key.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Keep the newest key in use per algorithm; retire the others, published for a day more.
  await sql`
    update signing_keys set retired_at = created_at, expires_at = created_at + 86400000
    where retired_at is null and kid not in (
      select kid from signing_keys s
      where s.retired_at is null and s.created_at = (select max(created_at) from signing_keys t where t.alg = s.alg and t.retired_at is null)
    )`.execute(db);
  await sql`create unique index signing_keys_one_in_use on signing_keys (alg) where retired_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index signing_keys_one_in_use`.execute(db);
}
