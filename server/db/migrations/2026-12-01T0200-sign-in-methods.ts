import { sql, type Kysely } from 'kysely';

/** Sessions, codes and service sessions from before two-step sign-in were opened with the password alone. */
const TABLES = ['user_sessions', 'oauth_codes', 'service_sessions'] as const;

// Append-only: never edit a migration after it has landed; add a new file instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) await db.schema.alterTable(table).addColumn('amr', 'text', (c) => c.notNull().defaultTo(sql`'pwd'`)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) await db.schema.alterTable(table).dropColumn('amr').execute();
}
