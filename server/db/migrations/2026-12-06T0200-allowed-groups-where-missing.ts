import { sql, type Kysely } from 'kysely';

/**
 * A repair. `2026-12-01T0300-groups` was edited after it had landed, to add the services'
 * allowed groups, and renamed from `-user-groups`: a database migrated by it as it first was has
 * the users' groups and not the services' (migrateToLatest renames its record). Every other
 * database has the column already.
 */
// Append-only: never edit a migration after it has landed; add a new file instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  const tables = await db.introspection.getTables();
  const services = tables.find((table) => table.name === 'api_services');
  if (services?.columns.some((column) => column.name === 'allowed_groups')) return;
  await db.schema.alterTable('api_services').addColumn('allowed_groups', 'text', (c) => c.notNull().defaultTo(sql`'[]'`)).execute();
}

// Nothing to take back: the column belongs to 2026-12-01T0300-groups.
export async function down(): Promise<void> {}
