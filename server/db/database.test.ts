import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { openDatabase } from './database';

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
