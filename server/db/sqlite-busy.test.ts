import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { openDatabase, sqliteFile } from './database';
import { DatabaseProblem } from './database-problems';
import { busyWait } from './sqlite-busy';

const opened: Array<{ close(): void }> = [];
let dataDir: string | undefined;
afterEach(() => {
  for (const connection of opened.splice(0)) connection.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Two connections to one WAL database, as two processes have: ours, which never waits inside SQLite, and the other, holding the write lock. */
function twoConnections() {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'hg-busy-'));
  const file = path.join(dataDir, 'busy.db');
  const ours = new SqliteDatabase(file);
  ours.pragma('journal_mode = WAL');
  ours.pragma('busy_timeout = 0');
  ours.exec('create table t (n integer)');
  const other = new SqliteDatabase(file);
  opened.push(ours, other);
  other.exec('begin immediate');
  return { ours, other };
}

it('writes once the other connection lets go of the lock, the event loop free meanwhile', async () => {
  const { ours, other } = twoConnections();
  const insert = ours.prepare('insert into t values (1)');
  let tries = 0;
  const written = busyWait(ours, 5_000)(() => {
    tries++;
    return insert.run().changes;
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(tries).toBeGreaterThan(1);
  other.exec('commit');
  expect(await written).toBe(1);
});

it('gives up after its time with a problem that passes, naming the lock', async () => {
  const { ours } = twoConnections();
  const refusal = await busyWait(ours, 100)(() => ours.exec('insert into t values (1)')).catch((error: unknown) => error);
  expect(refusal).toBeInstanceOf(DatabaseProblem);
  expect(refusal).toMatchObject({ passing: true, message: "another process has held the SQLite database's write lock for over 0.1 s (the admin command, a sqlite3 shell, a backup tool?)" });
});

it('pauses twice as long after each refusal, up to 100 ms, and never pauses past its time', async () => {
  const { ours } = twoConnections();
  const pauses: number[] = [];
  const pause = (ms: number) => {
    pauses.push(ms);
    return new Promise<void>((resolve) => setTimeout(resolve, ms));
  };
  const refusal = await busyWait(ours, 1_000)(() => ours.exec('insert into t values (1)'), pause).catch((error: unknown) => error);
  expect(refusal).toBeInstanceOf(DatabaseProblem);
  expect(pauses.slice(0, 8)).toEqual([2, 4, 8, 16, 32, 64, 100, 100]);
  expect(pauses.slice(8).every((ms) => ms === 100)).toBe(true);
  expect(pauses.reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(1_000);
});

it('does not run a statement again inside a transaction, where the rest of the transaction would be lost', async () => {
  const { ours } = twoConnections();
  ours.exec('begin');
  ours.prepare('select count(*) from t').get();
  let tries = 0;
  const refusal = await busyWait(ours, 5_000)(() => {
    tries++;
    ours.exec('insert into t values (1)');
  }).catch((error: unknown) => error);
  expect([tries, (refusal as { code?: string }).code]).toEqual([1, 'SQLITE_BUSY']);
  ours.exec('rollback');
});

it('passes any other failure on at once, as it came', async () => {
  const { ours } = twoConnections();
  let tries = 0;
  const refusal = await busyWait(ours, 5_000)(() => {
    tries++;
    ours.exec('insert into nowhere values (1)');
  }).catch((error: unknown) => error);
  expect([tries, (refusal as { code?: string }).code]).toEqual([1, 'SQLITE_ERROR']);
  const failure = new Error('not a database error');
  expect(await busyWait(ours, 5_000)(() => Promise.reject(failure)).catch((error: unknown) => error)).toBe(failure);
});

/** The app's Kysely database, and another connection to its file holding the write lock. */
async function kyselyWhileLocked() {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'hg-busy-'));
  const { db } = openDatabase({ databaseUrl: undefined, dataDir });
  opened.push({ close: () => void db.destroy() });
  await sql`create table t (n integer)`.execute(db);
  const other = new SqliteDatabase(sqliteFile(dataDir));
  opened.push(other);
  other.exec('begin immediate');
  return { db, other };
}

it("waits with Kysely's statements and transactions, beginning a transaction only once it holds the lock", async () => {
  const { db, other } = await kyselyWhileLocked();
  let begun = false;
  const inTransaction = db.transaction().execute(async (tx) => {
    begun = true;
    await sql`insert into t values (1)`.execute(tx);
  });
  const statement = sql`insert into t values (2)`.execute(db);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(begun).toBe(false);

  other.exec('commit');
  await Promise.all([inTransaction, statement]);
  expect((await sql<{ n: number }>`select n from t order by n`.execute(db)).rows).toEqual([{ n: 1 }, { n: 2 }]);
});

// Kysely lends its one SQLite connection to one query at a time: a write holding it while it waited
// held up every query through Kysely (the Home page, Devices, the admin lists) for up to 5 s.
it('lends the connection to other queries while a statement or a transaction waits for the lock', async () => {
  const { db, other } = await kyselyWhileLocked();
  const waiting = [db.transaction().execute((tx) => sql`insert into t values (1)`.execute(tx)), sql`insert into t values (2)`.execute(db)];
  await new Promise((resolve) => setTimeout(resolve, 20));

  const read = sql<{ rows: number }>`select count(*) as rows from t`.execute(db);
  const answer = await Promise.race([read, new Promise((resolve) => setTimeout(resolve, 1_000, 'still queued'))]);
  expect(answer).toEqual({ rows: [{ rows: 0 }] });

  other.exec('commit');
  await Promise.all(waiting);
  expect((await sql<{ n: number }>`select n from t order by n`.execute(db)).rows).toEqual([{ n: 1 }, { n: 2 }]);
});
