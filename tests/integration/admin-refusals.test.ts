import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freePort, repoRoot, runTs } from '../support/server-process';
import { createTestDatabase, openTestDatabase, type TestDatabase } from '../support/test-database';

let database: TestDatabase;
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => database.drop());

const databaseEnv = () => ({ DATA_DIR: database.dataDir, ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}) });

/** The admin command's exit code and what it wrote to standard error. */
async function admin(args: string[], env: Record<string, string>, stdin?: string) {
  const run = runTs('server/cli/admin.ts', args, env, stdin);
  return { code: await run.exited, stderr: run.stderr(), stdout: run.stdout() };
}

/** Whether the test database holds Home Guard's tables (SQLite: whether its file exists at all). */
async function hasTables(dataDir: string): Promise<boolean> {
  if (!database.databaseUrl) return existsSync(path.join(dataDir, 'home-guard.db'));
  const client = new pg.Client({ connectionString: database.databaseUrl });
  await client.connect();
  try {
    return (await client.query(`select to_regclass('kysely_migration') as found`)).rows[0].found !== null;
  } finally {
    await client.end();
  }
}

async function signingKeyCount(): Promise<number> {
  const { db } = await openTestDatabase(database);
  try {
    return (await db.selectFrom('signing_keys').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
  } finally {
    await db.destroy();
  }
}

/** The admin command run on a terminal (script(1) gives it one), typing `answers` at its password prompts. */
function onTerminal(args: string[], env: Record<string, string>, answers: string[]): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, '--import', 'tsx', 'server/cli/admin.ts', ...args].map((word) => `'${word}'`).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } });
  let output = '';
  let typed = 0;
  child.stdout.on('data', (chunk) => {
    output += chunk;
    // Each answer once its prompt is shown: typed ahead, it would go to the previous prompt.
    const prompts = output.match(/assword: /g)?.length ?? 0;
    while (typed < Math.min(prompts, answers.length)) child.stdin.write(`${answers[typed++]}\r`);
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

describe('npm run admin: an operator mistake is one line and exit code 2', { timeout: 120_000 }, () => {
  it('refuses every command but create where no Home Guard database is (a typo in DATA_DIR), and creates none', async () => {
    const typo = path.join(database.dataDir, 'typo');
    const env = database.databaseUrl ? databaseEnv() : { DATA_DIR: typo };
    const where = database.databaseUrl ? database.databaseUrl : path.join(typo, 'home-guard.db');
    const refusal = `home-guard admin: no Home Guard database at ${where}: check DATA_DIR / DATABASE_URL\n`;
    const runs = await Promise.all([
      admin(['reset-password', '--email', 'boss@example.com'], env, 'Changed456\n'),
      admin(['turn-off-two-step', '--email', 'boss@example.com'], env),
      admin(['rotate-keys'], env),
      admin(['backup', '--to', path.join(database.dataDir, 'backup.db')], env),
    ]);
    // PostgreSQL is backed up with pg_dump, which the backup command says instead.
    const expected = runs.map((_, at) => (database.databaseUrl && at === 3 ? expect.stringMatching(/pg_dump/) : refusal));
    expect(runs.map((run) => run.stderr)).toEqual(expected);
    expect(runs.map((run) => run.code)).toEqual([2, 2, 2, 2]);
    expect(await hasTables(typo)).toBe(false);
    expect(existsSync(typo)).toBe(false);
  });

  it('refuses extra arguments, and options the command does not take, before doing anything', async () => {
    const keys = await signingKeyCount();
    const extra = await admin(['rotate-keys', '--email', 'x@example.com', 'extra'], databaseEnv());
    expect(extra.code).toBe(2);
    expect(extra.stderr.split('\n')[0]).toBe('home-guard admin: unexpected argument "extra" after rotate-keys');
    const option = await admin(['rotate-keys', '--email', 'x@example.com'], databaseEnv());
    expect(option.code).toBe(2);
    expect(option.stderr.split('\n')[0]).toBe('home-guard admin: rotate-keys does not take --email');
    expect(await signingKeyCount()).toBe(keys);
  });

  it('says when no password is given, or the two typed do not match', async () => {
    await (await openTestDatabase(database)).db.destroy();
    expect(await admin(['reset-password', '--email', 'boss@example.com'], databaseEnv(), '')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'home-guard admin: no password given (set HOME_GUARD_PASSWORD or pipe it in)\n',
    });
    const typed = await onTerminal(['create', '--email', 'boss@example.com', '--name', 'The Boss'], databaseEnv(), ['Secret1234', 'Secret1243']);
    expect(typed.code).toBe(2);
    expect(typed.output.trim().split('\r\n').at(-1)).toBe('home-guard admin: the passwords do not match');
    expect(typed.output).not.toMatch(/failed|Error/);
  });

  it('says PostgreSQL cannot be reached, naming where and never the password', async () => {
    const port = await freePort();
    const run = await admin(['rotate-keys'], { DATA_DIR: database.dataDir, DATABASE_URL: `postgres://hg:S3cretPass@127.0.0.1:${port}/hg` });
    expect(run).toEqual({ code: 2, stdout: '', stderr: `home-guard admin: cannot connect to PostgreSQL at 127.0.0.1:${port}: ECONNREFUSED\n` });
  });
});
