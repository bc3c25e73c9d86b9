import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { openDatabase } from './database';
import { describePostgres } from './database-problems';

it('opens SQLite in WAL mode, durable across a crash, with foreign keys and a 2 MB page cache', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hg-open-'));
  const { db } = openDatabase({ databaseUrl: undefined, dataDir });
  try {
    const pragma = async (name: string) => Object.values((await sql<Record<string, unknown>>`select * from ${sql.raw(`pragma_${name}`)}`.execute(db)).rows[0]!)[0];
    // synchronous 1 is NORMAL: in WAL mode a process crash loses nothing, only a power cut may.
    expect([await pragma('journal_mode'), await pragma('synchronous'), await pragma('foreign_keys'), await pragma('cache_size')]).toEqual(['wal', 1, 1, -2000]);
  } finally {
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

it('keeps the data directory and the database files to their owner', async () => {
  const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'hg-modes-')), 'data');
  const { db } = openDatabase({ databaseUrl: undefined, dataDir });
  try {
    await sql`create table t (x integer)`.execute(db); // a write: the -wal and -shm files exist now
    const mode = (file: string) => statSync(path.join(dataDir, file)).mode & 0o777;
    expect([mode('.'), mode('home-guard.db'), mode('home-guard.db-wal'), mode('home-guard.db-shm')]).toEqual([0o700, 0o600, 0o600, 0o600]);
  } finally {
    await db.destroy();
    rmSync(path.dirname(dataDir), { recursive: true, force: true });
  }
});

it('narrows the files of an older install that anyone could read', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hg-old-'));
  const files = ['home-guard.db', 'home-guard.db-wal', 'home-guard.db-shm'];
  for (const file of files) writeFileSync(path.join(dataDir, file), '', { mode: 0o644 });
  const { db } = openDatabase({ databaseUrl: undefined, dataDir });
  try {
    expect(files.map((file) => statSync(path.join(dataDir, file)).mode & 0o777)).toEqual([0o600, 0o600, 0o600]);
  } finally {
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

it('takes a PostgreSQL socket directory in DATABASE_URL, which pg reads and WHATWG URLs do not, naming it without the password', async () => {
  expect(describePostgres('postgres://hg:s3cret@db.home.lan:5433/guard')).toEqual({ location: 'postgres://hg:***@db.home.lan:5433/guard', address: 'db.home.lan:5433' });
  expect(describePostgres('postgres://hg:my@s3cret@db.home.lan:5433/guard').location).toBe('postgres://hg:***@db.home.lan:5433/guard');
  // pg takes a password from the query as well.
  expect(describePostgres('postgres://hg@db.home.lan/guard?sslmode=require&password=s3cret').location).toBe('postgres://hg@db.home.lan/guard?sslmode=require&password=***');
  const socket = 'postgres://hg:s3cret@/guard?host=/run/postgresql';
  expect(describePostgres(socket)).toEqual({ location: 'postgres://hg:***@/guard?host=/run/postgresql', address: '/run/postgresql:5432' });
  const { db, location } = openDatabase({ databaseUrl: socket, dataDir: os.tmpdir() }); // connects on first use only
  expect(location).toBe('postgres://hg:***@/guard?host=/run/postgresql');
  await db.destroy();
});
