import type { Kysely } from 'kysely';

/**
 * The audit log: what happened to accounts and services, by whom, from where. No foreign keys:
 * an event outlives the account or service it names (a deletion is itself an event).
 */
// Append-only: never edit a migration after it has landed; add a new file instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('actor_id', 'text')
    .addColumn('service_id', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('device_info', 'text')
    .addColumn('detail', 'text')
    .execute();
  await db.schema.createIndex('audit_events_at').on('audit_events').column('at').execute();
  await db.schema.createIndex('audit_events_user_id_at').on('audit_events').columns(['user_id', 'at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_events').execute();
}
