import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer } from '../../scripts/build-server.mjs';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The server as `npm start` runs it, compiled once per test run (`compileTestServer`, from the
 * test runners' global setup): started from TypeScript through tsx, each start took a second or
 * more of transpiling on a slow VM, and the suites start it some 60 times.
 */
export const TEST_SERVER_BUNDLE = 'build/test-server/main.js';
export const compileTestServer = () => buildServer(path.join(repoRoot, TEST_SERVER_BUNDLE));

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export type ServerProcess = {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** Ends the process with a signal and waits for it to exit; resolves to its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

/**
 * Runs an entry point of the repo (TypeScript through tsx, or a compiled .js) and collects its
 * output; `user` runs it as another user (the tests run as root, whom no file permission stops).
 */
export function runTs(entry: string, args: string[], env: Record<string, string>, stdin?: string, nodeArgs: string[] = [], user: { uid?: number; gid?: number } = {}) {
  // tsx as a loader in one process (its CLI forks a child that a SIGKILL would orphan).
  const child = spawn(process.execPath, [...nodeArgs, ...(entry.endsWith('.ts') ? ['--import', 'tsx'] : []), entry, ...args], { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, ...user });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  if (stdin !== undefined) child.stdin.end(stdin);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

/** Starts the real server (compiled, see TEST_SERVER_BUNDLE) as its own process and waits until it answers. */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 90_000, nodeArgs: string[] = [], entry = TEST_SERVER_BUNDLE): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const url = `http://127.0.0.1:${port}`;
  const run = runTs(entry, [], { HOST: '127.0.0.1', PUBLIC_URL: url, LOG_LEVEL: 'warn', ...env, PORT: String(port) }, undefined, nodeArgs);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (run.child.exitCode !== null) throw new Error(`server exited early (${run.child.exitCode}): ${run.stderr()}${run.stdout()}`);
    try {
      const answer = await fetch(`${url}/api/v1/health-check-probe`);
      if (answer.status === 404) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      run.child.kill('SIGKILL');
      throw new Error(`server did not start within ${timeoutMs} ms: ${run.stderr()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child: run.child,
    output: () => run.stdout() + run.stderr(),
    stop: async (signal = 'SIGTERM') => {
      if (run.child.exitCode === null) run.child.kill(signal);
      return run.exited;
    },
  };
}

/** JSON over real HTTP. */
export async function httpJson(url: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const response = await fetch(url, { method: init.method ?? 'GET', headers, ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}) });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, body, headers: response.headers };
}
