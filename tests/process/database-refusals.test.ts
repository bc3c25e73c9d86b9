import net from 'node:net';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from '../../server/db/database';
import { freePort, runTs, TEST_SERVER_BUNDLE } from '../support/server-process';

const dataDirs: string[] = [];
afterAll(() => {
  for (const dir of dataDirs) {
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
});

function newDataDir(): string {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hg-refusal-'));
  dataDirs.push(dataDir);
  return dataDir;
}

/** A data directory holding a migrated database, closed again. */
async function migratedDataDir(change?: (db: ReturnType<typeof openDatabase>['db']) => Promise<unknown>): Promise<string> {
  const dataDir = newDataDir();
  const { db } = openDatabase({ databaseUrl: undefined, dataDir });
  await migrateToLatest(db);
  await change?.(db);
  await db.destroy();
  return dataDir;
}

// The tests run as root, whom no file permission stops: the server runs as nobody then.
const asRoot = process.getuid?.() === 0;
const unprivileged = asRoot ? { uid: 65534, gid: 65534 } : {};

/**
 * Starts the server expecting it to refuse: its exit code (or 'still running' when it started
 * after all, and is killed) and every line it printed.
 */
async function refusal(env: Record<string, string>) {
  const web = newDataDir();
  chmodSync(web, 0o755);
  const run = runTs(TEST_SERVER_BUNDLE, [], { HOST: '127.0.0.1', PORT: String(await freePort()), LOG_LEVEL: 'warn', STATIC_DIR: web, ...env }, undefined, [], unprivileged);
  const code = await Promise.race([run.exited, new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 45_000).unref())]);
  if (code === 'still running') run.child.kill('SIGKILL');
  return { code, lines: (run.stdout() + run.stderr()).trim().split('\n') };
}

describe('the server refuses to start, in one line naming the problem, exit code 2', () => {
  it('on a database file it cannot write (it would start "ready" and fail every write)', async () => {
    const dataDir = await migratedDataDir();
    const file = path.join(dataDir, 'home-guard.db');
    chmodSync(dataDir, 0o777);
    chmodSync(file, asRoot ? 0o644 : 0o444);
    expect(await refusal({ DATA_DIR: dataDir })).toEqual({ code: 2, lines: [`home-guard: cannot write the database file ${file}: check its owner and permissions`] });
  });

  it('on a data directory it cannot write (SQLite creates its -wal and -shm files there)', async () => {
    const dataDir = await migratedDataDir();
    chmodSync(path.join(dataDir, 'home-guard.db'), 0o666);
    chmodSync(dataDir, asRoot ? 0o755 : 0o555);
    const { code, lines } = await refusal({ DATA_DIR: dataDir });
    expect(code).toBe(2);
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^home-guard: cannot write the data directory ${dataDir} `))]);
  });

  it('on a file that is not a database, or cannot be opened, naming it', async () => {
    const garbage = newDataDir();
    writeFileSync(path.join(garbage, 'home-guard.db'), 'not a database, only text\n'.repeat(100));
    chmodSync(path.join(garbage, 'home-guard.db'), 0o666);
    chmodSync(garbage, 0o777);
    expect(await refusal({ DATA_DIR: garbage })).toEqual({ code: 2, lines: [`home-guard: cannot open the database ${path.join(garbage, 'home-guard.db')}: file is not a database`] });

    const directory = newDataDir();
    mkdirSync(path.join(directory, 'home-guard.db'));
    chmodSync(path.join(directory, 'home-guard.db'), 0o777);
    chmodSync(directory, 0o777);
    expect(await refusal({ DATA_DIR: directory })).toEqual({ code: 2, lines: [`home-guard: cannot open the database ${path.join(directory, 'home-guard.db')}: unable to open database file`] });
  });

  it('on a database made by a newer Home Guard', async () => {
    const dataDir = await migratedDataDir((db) => sql`insert into kysely_migration (name, timestamp) values ('2099-01-01T0000-from-the-future', ${new Date().toISOString()})`.execute(db));
    chmodSync(dataDir, 0o777);
    chmodSync(path.join(dataDir, 'home-guard.db'), 0o666);
    expect(await refusal({ DATA_DIR: dataDir })).toEqual({
      code: 2,
      lines: ['home-guard: this database was made by a newer Home Guard (migration 2099-01-01T0000-from-the-future is unknown): upgrade Home Guard or restore a backup'],
    });
  });

  it('on a port another process holds, naming HOST and PORT', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as net.AddressInfo;
    try {
      const dataDir = newDataDir();
      chmodSync(dataDir, 0o777);
      // Past the database, so the warnings of a server that got that far come first.
      const { code, lines } = await refusal({ DATA_DIR: dataDir, PORT: String(port) });
      expect([code, lines.at(-1)]).toEqual([2, `home-guard: cannot listen on 127.0.0.1 port ${port} (HOST, PORT): EADDRINUSE`]);
    } finally {
      holder.close();
    }
  });

  it('when DATABASE_URL asks for TLS and PostgreSQL takes none, saying what to change', async () => {
    expect(await refusal({ DATA_DIR: newDataDir(), DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test?sslmode=no-verify' })).toEqual({
      code: 2,
      lines: ["home-guard: PostgreSQL at 127.0.0.1:5432 does not take TLS connections, which DATABASE_URL's sslmode asks for: remove sslmode from DATABASE_URL, or turn ssl on in postgresql.conf"],
    });
  });

  it('when PostgreSQL cannot be reached, naming where and never the password', async () => {
    const port = await freePort();
    expect(await refusal({ DATA_DIR: newDataDir(), DATABASE_URL: `postgres://hg:S3cretPass@127.0.0.1:${port}/hg`, DATABASE_WAIT: '0' })).toEqual({
      code: 2,
      lines: [`home-guard: cannot connect to PostgreSQL at 127.0.0.1:${port}: ECONNREFUSED`],
    });
  });
});
