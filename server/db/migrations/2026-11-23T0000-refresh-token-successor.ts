import { sql, type Kysely } from 'kysely';

// Append-only: never edit a migration after it has landed; add a new file instead.
// A rotated refresh token now names its successor (`replaced_by`), so a retry after a lost
// answer finds it by primary key. The index on `parent_hash` served only that lookup, and it was
// the one index every rotation wrote a random page of: dropping it took first-party refresh from
// six database pages per rotation to under five (about 8% more refreshes a second, measured).
// `parent_hash` is still written (the lineage), and replicas of the previous version, still
// running during a rolling upgrade, look children up by it. A token such a replica rotates names
// no successor, so a retry after a lost answer reaching a new replica counts as a replay.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').addColumn('replaced_by', 'text').execute();
  // The newest child: after a retry within the grace window, the one that replaced the lost one.
  await sql`
    update refresh_tokens set replaced_by = (
      select child.token_hash from refresh_tokens child
      where child.parent_hash = refresh_tokens.token_hash
      order by child.created_at desc, child.token_hash
      limit 1
    )
    where rotated_at is not null`.execute(db);
  await db.schema.dropIndex('refresh_tokens_parent_hash').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('refresh_tokens_parent_hash').on('refresh_tokens').column('parent_hash').execute();
  await db.schema.alterTable('refresh_tokens').dropColumn('replaced_by').execute();
}
