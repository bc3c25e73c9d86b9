import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleIsCurrent, SERVER_ENV, SERVER_NODE_FLAGS, serverBundle } from '../../scripts/build-server.mjs';
import { freePort, repoRoot } from '../support/server-process';

const dataDirs: string[] = [];
afterAll(() => dataDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Runs `npm start` as a person would, with only the given variables changed. */
function npmStart(env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hg-start-'));
  dataDirs.push(dataDir);
  const child = spawn('npm', ['start', '--silent'], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', npm_config_nodedir: '/usr', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    detached: true,
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // npm starts the server as a child of its own: end the whole group.
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
    return exited;
  };
  return { exited, stop, stderr: () => stderr, dataDir, pid: child.pid! };
}

/** The processes in the group npm leads: their ids and arguments. */
function groupProcesses(groupId: number): Array<{ pid: string; argv: string[] }> {
  const found = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // The group id is the fifth field of stat, counted after the command name in parentheses.
      if (Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[2]) !== groupId) continue;
      found.push({ pid, argv: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0') });
    } catch {
      // the process ended while being read
    }
  }
  return found;
}

const groupCommands = (groupId: number) => groupProcesses(groupId).map(({ argv }) => argv);

/** The Node process serving for `npm start`: its arguments and environment. */
function serverProcess(groupId: number): { argv: string[]; environ: string } | undefined {
  const server = groupProcesses(groupId).find(({ argv }) => argv.includes('scripts/start.mjs'));
  if (!server) return undefined;
  try {
    return { argv: server.argv, environ: readFileSync(`/proc/${server.pid}/environ`, 'utf8') };
  } catch {
    return undefined; // it ended meanwhile
  }
}

describe('npm start', () => {
  it('compiles the server again once a source is newer than the compiled one', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hg-bundle-'));
    dataDirs.push(dir);
    const bundle = path.join(dir, 'main.js');
    expect(bundleIsCurrent(bundle), 'none yet').toBe(false);
    writeFileSync(bundle, '');
    expect(bundleIsCurrent(bundle)).toBe(true);
    utimesSync(bundle, new Date('2020-01-01'), new Date('2020-01-01'));
    expect(bundleIsCurrent(bundle), 'compiled before the sources last changed').toBe(false);
  });

  it('refuses a bad PORT with one line naming it, and a non-zero exit', async () => {
    const run = npmStart({ PORT: 'abc' });
    const code = await run.exited;
    expect(code).not.toBe(0);
    const lines = run.stderr().trim().split('\n').filter((line) => !line.startsWith('npm '));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/PORT/);
  });

  it('leaves no compiler running beside the server it compiled', async () => {
    utimesSync(serverBundle, new Date('2020-01-01'), new Date('2020-01-01')); // older than the sources: compiled again
    const port = await freePort();
    const run = npmStart({ PORT: String(port), HOST: '127.0.0.1' });
    try {
      await expect.poll(() => fetch(`http://127.0.0.1:${port}/healthz`).then((answer) => answer.status, () => 0), { timeout: 60_000 }).toBe(200);
      expect(bundleIsCurrent(), 'compiled').toBe(true);
      // esbuild's service process (some 30 MB) stayed for as long as the server ran.
      expect(groupCommands(run.pid).filter((argv) => argv.some((arg) => arg.startsWith('--service')))).toEqual([]);
    } finally {
      await run.stop();
    }
  });

  it('serves the PWA and the API on the embedded SQLite database with no other service', async () => {
    // The start above compiled the server: this one runs it as it is, so a checkout that cannot be written still starts.
    const compiled = statSync(serverBundle).mtimeMs;
    const port = await freePort();
    const run = npmStart({ PORT: String(port), HOST: '127.0.0.1' });
    try {
      let page: Response | undefined;
      const deadline = Date.now() + 150_000;
      while (!page && Date.now() < deadline) {
        page = await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined);
        if (!page) await new Promise((r) => setTimeout(r, 250));
      }
      expect(page?.status, run.stderr()).toBe(200);
      expect(await page!.text()).toContain('Home Guard');
      const register = await fetch(`http://127.0.0.1:${port}/api/v1/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ full_name: 'First Admin', email: 'first@example.com', password: 'FirstAdmin1' }),
      });
      expect(register.status).toBe(200);
      const fs = await import('node:fs');
      expect(fs.existsSync(path.join(run.dataDir, 'home-guard.db'))).toBe(true);
      expect(statSync(serverBundle).mtimeMs, 'not compiled again').toBe(compiled);
      // With the memory settings the benchmark measures (scripts/build-server.mjs).
      const server = serverProcess(run.pid);
      expect(server?.argv).toEqual(expect.arrayContaining(SERVER_NODE_FLAGS));
      // glibc, having read GLIBC_TUNABLES, splits it in place at its colons: NULs read back as colons.
      for (const [name, value] of Object.entries(SERVER_ENV)) expect(server?.environ.replaceAll('\0', ':')).toContain(`${name}=${value}`);

      // What `docker stop`, pm2 or `kill <pid>` do: signal npm alone. The server must get it, drain
      // and end; it was left running without npm, holding the port, when a shell stood between.
      process.kill(run.pid, 'SIGTERM');
      await run.exited;
      await expect.poll(() => serverProcess(run.pid), { timeout: 15_000 }).toBeUndefined();
      expect(await fetch(`http://127.0.0.1:${port}/`).then(() => 'still served', () => 'stopped')).toBe('stopped');
    } finally {
      await run.stop();
    }
  });
});
