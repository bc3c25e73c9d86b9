import { rmSync } from 'node:fs';
import { sql } from 'kysely';
import type { Database } from '../../server/db/database';
import { newDataDir, type TestDatabase } from './test-database';

/**
 * PostgreSQL test databases, used again by the next test of the same worker. A copy of the
 * template took 300 ms a test (CREATE DATABASE writes every page of it to the WAL); emptying one
 * a test is done with and putting the template's rows back takes 10-20. The PostgreSQL project
 * took 168 s alone, 123 s with reuse (2026-12-04, a 2-core VM). A database whose tables, columns
 * or migrations a test changed is dropped instead. SQLite copies a file: nothing worth saving.
 */
type Contents = { shape: string; rows: Array<[table: string, rows: Record<string, unknown>[]]> };

const spare: TestDatabase[] = [];
let template: Contents | undefined;

async function shapeOf(db: Database): Promise<{ shape: string; tables: string[] }> {
  const columns = await sql<{ table_name: string; column_name: string; data_type: string }>`
    select table_name, column_name, data_type from information_schema.columns where table_schema = current_schema() order by 1, 2`.execute(db);
  const migrations = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  const tables = [...new Set(columns.rows.map((column) => column.table_name))].filter((table) => !table.startsWith('kysely_'));
  return { shape: JSON.stringify([columns.rows, migrations.rows]), tables };
}

/** A database a test is done with, with a new data directory, if one is left; otherwise the caller makes a copy. */
export function takeSpareDatabase(): TestDatabase | undefined {
  const database = spare.pop();
  if (database) database.dataDir = newDataDir();
  return database;
}

/** Called with a fresh copy of the template before its test touches it: what every reuse must give back. */
export async function rememberTemplate(database: TestDatabase, db: Database): Promise<void> {
  if (database.kind !== 'postgres' || template) return;
  const { shape, tables } = await shapeOf(db);
  const rows: Contents['rows'] = [];
  for (const table of tables) {
    const found = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db);
    if (found.rows.length > 0) rows.push([table, found.rows]);
  }
  template = { shape, rows };
}

/**
 * Empties a database its test is done with (every table cascades from users and api_services, so
 * order does not matter) and puts the template's rows back; true if it was kept for the next test.
 */
export async function keepForNextTest(database: TestDatabase, db: Database): Promise<boolean> {
  if (database.kind !== 'postgres' || !template) return false;
  const contents = template;
  try {
    const { shape, tables } = await shapeOf(db);
    if (shape !== contents.shape) return false;
    await db.transaction().execute(async (tx) => {
      for (const table of tables) await sql`delete from ${sql.table(table)}`.execute(tx);
      for (const [table, rows] of contents.rows) await tx.insertInto(table as never).values(rows as never).execute();
    });
  } catch {
    return false; // a connection the test broke, say: a new copy is safer
  }
  // Not its data directory: the next test would read the outbox and the backups as its own. The
  // database itself is dropped with the template at the run's end, if no test takes it again.
  rmSync(database.dataDir, { recursive: true, force: true });
  spare.push(database);
  return true;
}
