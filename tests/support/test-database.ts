import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { migrateToLatest, openDatabase, sqliteFile, type Database, type OpenedDatabase } from '../../server/db/database';

/** The PostgreSQL server tests use; each test database is created on it and dropped after. */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type TestDatabase = {
  kind: 'sqlite' | 'postgres';
  dataDir: string;
  /** Set for PostgreSQL: the DATABASE_URL of this test's own database. */
  databaseUrl: string | undefined;
  /** What another test database may be made a copy of (createTestDatabase's `template`): the SQLite file, or the PostgreSQL database's name. */
  template: string;
  drop(): Promise<void>;
};

export const testDatabaseKind = (): 'sqlite' | 'postgres' => (process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite');

/** How many statements on this PostgreSQL database wait for a lock: the cue that requests reached the write a test's transaction holds back. */
export const lockWaits = async (db: Database): Promise<number> =>
  (await sql<{ count: number }>`select count(*)::int as count from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(db)).rows[0]!.count;

export async function adminQuery(sql: string, values: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** Drops a PostgreSQL database and the copies of it still there: kept for reuse, or left by a test that never closed its app. */
export async function dropWithCopies(database: TestDatabase): Promise<void> {
  if (database.kind === 'postgres') {
    const copies = await adminQuery(`select datname from pg_database where starts_with(datname, $1)`, [`${database.template}_`]);
    for (const copy of copies) await adminQuery(`drop database if exists ${String(copy.datname)} with (force)`);
  }
  await database.drop();
}

/**
 * A fresh database of the kind this test project runs on, unless told (and a data directory):
 * empty, or a copy of another's `template`.
 */
export const newDataDir = () => mkdtempSync(path.join(os.tmpdir(), 'hg-test-'));

export async function createTestDatabase(kind = testDatabaseKind(), template?: string): Promise<TestDatabase> {
  const dataDir = newDataDir();
  if (kind === 'sqlite') {
    if (template) copyFileSync(template, sqliteFile(dataDir));
    return { kind: 'sqlite', dataDir, databaseUrl: undefined, template: sqliteFile(dataDir), drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  // A copy is named after its template: the template's teardown drops the copies left (spare-databases.ts).
  const name = `${template ?? `hg_test_${process.pid}`}_${Math.random().toString(36).slice(2, 10)}`;
  await adminQuery(`create database ${name}${template ? ` template ${template}` : ''}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const database: TestDatabase = {
    kind: 'postgres',
    dataDir,
    databaseUrl: url.toString(),
    template: name,
    drop: async () => {
      await adminQuery(`drop database if exists ${name} with (force)`);
      rmSync(database.dataDir, { recursive: true, force: true }); // a reused database has a new one
    },
  };
  return database;
}

/** Opens and migrates a test database. */
export async function openTestDatabase(test: TestDatabase): Promise<OpenedDatabase> {
  const opened = openDatabase({ databaseUrl: test.databaseUrl, dataDir: test.dataDir });
  await migrateToLatest(opened.db);
  return opened;
}
