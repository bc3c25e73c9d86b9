import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { openDatabase } from './database';
import { flushToDisk, scheduleWalCheckpoints } from './wal-checkpoints';

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

it('copies the WAL into the database file only once the WAL has been flushed to disk', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hg-wal-'));
  const file = path.join(dataDir, 'flush.db');
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  const flushed: string[] = [];
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  const checkpoints = scheduleWalCheckpoints(sqlite, 10, async (wal) => {
    flushed.push(wal);
    await gate;
    await flushToDisk(wal);
  });
  try {
    sqlite.exec('create table filler (id integer primary key, body text not null)');
    const insert = sqlite.prepare('insert into filler (body) values (?)');
    for (let i = 0; i < 50; i++) insert.run('x'.repeat(4000));
    const before = statSync(file).size;
    await expect.poll(() => flushed, { timeout: 5_000 }).toEqual([`${file}-wal`]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Ten ticks have passed: none copied anything, nor started a second pass, while the flush ran.
    expect([statSync(file).size, flushed.length]).toEqual([before, 1]);
    open();
    await expect.poll(() => statSync(file).size, { timeout: 5_000 }).toBeGreaterThan(before + 50 * 4000);
  } finally {
    checkpoints.stop();
    sqlite.close();
  }
});

it('copies again after more writes, leaves an idle database asleep, and stops when told', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hg-wal-'));
  const sqlite = new SqliteDatabase(path.join(dataDir, 'idle.db'));
  sqlite.pragma('journal_mode = WAL');
  let passes = 0;
  const checkpoints = scheduleWalCheckpoints(sqlite, 10, async (wal) => {
    passes += 1;
    await flushToDisk(wal);
  });
  const tick = () => new Promise((resolve) => setTimeout(resolve, 100)); // ten intervals
  try {
    sqlite.exec('create table filler (id integer primary key, body text not null)');
    await expect.poll(() => passes, { timeout: 5_000 }).toBeGreaterThan(0);
    await tick();
    const afterFirstWrites = passes;
    await tick();
    expect(passes, 'nothing written: no pass').toBe(afterFirstWrites);

    sqlite.prepare('insert into filler (body) values (?)').run('x'.repeat(4000));
    await expect.poll(() => passes, { timeout: 5_000 }).toBeGreaterThan(afterFirstWrites);

    checkpoints.stop();
    const stopped = passes;
    sqlite.prepare('insert into filler (body) values (?)').run('y'.repeat(4000));
    await tick();
    expect(passes, 'stopped: no pass').toBe(stopped);
  } finally {
    checkpoints.stop();
    sqlite.close();
  }
});
