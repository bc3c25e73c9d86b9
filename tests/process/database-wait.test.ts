import { rmSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { startRelay } from '../support/postgres-relay';
import { freePort, runTs, TEST_SERVER_BUNDLE } from '../support/server-process';
import { createTestDatabase, newDataDir } from '../support/test-database';

// PostgreSQL started beside Home Guard (a compose stack without health checks) refuses
// connections for its first seconds, and its image restarts it once after creating the database.

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The server as its own process, on a database that may not answer yet; it is killed after the test. */
async function startServer(databaseUrl: string, env: Record<string, string> = {}) {
  const port = await freePort();
  const dirs = [newDataDir(), newDataDir()];
  const run = runTs(TEST_SERVER_BUNDLE, [], { HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', STATIC_DIR: dirs[0]!, DATA_DIR: dirs[1]!, DATABASE_URL: databaseUrl, ...env });
  cleanups.push(async () => {
    if (run.child.exitCode === null) run.child.kill('SIGKILL');
    await run.exited;
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return { ...run, url: `http://127.0.0.1:${port}`, lines: () => (run.stdout() + run.stderr()).trim().split('\n') };
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const ready = (url: string) => fetch(`${url}/readyz`).then((answer) => answer.status === 200, () => false);

it('waits for a PostgreSQL that is not up yet, saying so once, and starts once it answers', async () => {
  const database = await createTestDatabase('postgres');
  cleanups.push(() => database.drop());
  const port = await freePort();
  const server = await startServer(Object.assign(new URL(database.databaseUrl!), { hostname: '127.0.0.1', port: String(port) }).toString());
  const waiting = `home-guard: cannot connect to PostgreSQL at 127.0.0.1:${port}: ECONNREFUSED; trying again every 2 s for up to 60 s (DATABASE_WAIT)`;
  await until(() => server.lines().includes(waiting), 30_000);

  const relay = await startRelay(new URL(database.databaseUrl!), port);
  cleanups.push(() => relay.close());
  await until(() => ready(server.url), 30_000);
  expect(server.child.exitCode).toBeNull();
  expect(server.lines().filter((line) => line.startsWith('home-guard:'))).toEqual([waiting]);
});

it('gives up after DATABASE_WAIT seconds, in the one line it gave at once', async () => {
  const port = await freePort();
  const started = Date.now();
  const server = await startServer(`postgres://hg:S3cretPass@127.0.0.1:${port}/hg`, { DATABASE_WAIT: '3' });
  expect(await server.exited).toBe(2);
  expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
  expect(server.lines()).toEqual([
    `home-guard: cannot connect to PostgreSQL at 127.0.0.1:${port}: ECONNREFUSED; trying again every 2 s for up to 3 s (DATABASE_WAIT)`,
    `home-guard: cannot connect to PostgreSQL at 127.0.0.1:${port}: ECONNREFUSED`,
  ]);
});

it('does not wait on a refusal that will not pass: a database that does not exist', async () => {
  const server = await startServer('postgres://postgres@127.0.0.1:5432/hg_no_such_database');
  expect(await server.exited).toBe(2);
  expect(server.lines()).toEqual(['home-guard: PostgreSQL at 127.0.0.1:5432 refused the connection: database "hg_no_such_database" does not exist']);
});
