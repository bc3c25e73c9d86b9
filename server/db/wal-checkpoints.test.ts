import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { openDatabase } from './database';

it('leaves checkpoints out of commits and copies the WAL into the database file on a timer', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hg-wal-'));
  const { db, location } = openDatabase({ databaseUrl: undefined, dataDir });
  expect((await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db)).rows[0]!.wal_autocheckpoint).toBe(0);
  await sql`create table filler (id integer primary key, body text not null)`.execute(db);
  const before = statSync(location).size;
  for (let i = 0; i < 200; i++) await sql`insert into filler (body) values (${'x'.repeat(4000)})`.execute(db);
  await expect.poll(() => statSync(location).size, { timeout: 5_000 }).toBeGreaterThan(before + 200 * 4000);
  expect((await sql<{ n: number }>`select count(*) as n from filler`.execute(db)).rows[0]!.n).toBe(200);
  await db.destroy();
});
