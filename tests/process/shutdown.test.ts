import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/server-process';
import { startSmtpSink } from '../support/smtp-sink';

const dataDirs: string[] = [];
let server: ServerProcess | undefined;

afterEach(async () => {
  await server?.stop('SIGKILL');
  server = undefined;
});
afterAll(() => dataDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

async function start(env: Record<string, string> = {}): Promise<ServerProcess> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hg-shutdown-'));
  dataDirs.push(dataDir);
  server = await startServerProcess({ DATA_DIR: dataDir, STATIC_DIR: dataDir, ...env });
  return server;
}

const LOGIN = JSON.stringify({ email: 'nobody@example.com', password: 'Wrong-pass1' });

/**
 * A request the server has begun and that does not end until `finish` is called: its body is
 * announced and only half sent, as a stalled client does (or a handler waiting on a mail server
 * that never answers). The connection stays open after the answer, as a kept-alive one does;
 * `closed` resolves when the server drops it.
 */
async function unfinishedRequest(url: string) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  socket.on('error', () => {});
  const closed = once(socket, 'close').then(() => undefined);
  const answer = once(socket, 'data').then(([chunk]) => String(chunk));
  const half = LOGIN.length / 2;
  socket.write(`POST /api/v1/auth/login HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${LOGIN.length}\r\n\r\n${LOGIN.slice(0, half)}`);
  // Long enough for the server to have read the headers: the request is in flight.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return { closed, answer, finish: () => socket.write(LOGIN.slice(half)) };
}

/** The exit code, or 'still running' when the process is not gone within `ms`. */
const exitWithin = (exited: Promise<number | null>, ms: number) =>
  Promise.race([exited, new Promise<string>((resolve) => setTimeout(() => resolve('still running'), ms).unref())]);

it('force-closes a request that never ends once the shutdown deadline passes, exits non-zero and says so', async () => {
  const running = await start();
  const stuck = await unfinishedRequest(running.url);
  const signalled = Date.now();
  const exited = running.stop('SIGTERM');
  // The deadline is under Docker's 10 s stop timeout; a tsx process on a busy machine adds a little.
  expect(await exitWithin(exited, 12_000)).toBe(1);
  expect(Date.now() - signalled).toBeGreaterThan(5_000);
  await stuck.closed;
  expect(running.output()).toMatch(/shutdown deadline passed .* after SIGTERM: force-closing the connections still open/);
});

it('answers a request that ends while closing, then stops at once with 0, not waiting for its idle connection', async () => {
  const running = await start();
  const slow = await unfinishedRequest(running.url);
  const exited = running.stop('SIGTERM');
  // Past the drain: the server has begun closing.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  slow.finish();
  expect(await slow.answer).toMatch(/^HTTP\/1.1 401 /);
  expect(await exitWithin(exited, 3_000)).toBe(0);
  await slow.closed;
});

it('exits at once on a second signal, without waiting for the deadline', async () => {
  const running = await start();
  await unfinishedRequest(running.url);
  const exited = running.stop('SIGTERM');
  // Past the drain: the server is now waiting for the stuck request.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  running.child.kill('SIGINT');
  expect(await exitWithin(exited, 2_500)).toBe(1);
  expect(running.output()).toMatch(/second SIGINT: exiting at once/);
});

it('drains and stops cleanly on SIGHUP, as on SIGTERM, and says so from start to end', async () => {
  const running = await start({ LOG_LEVEL: 'info' });
  // Killed by the signal, the process would have no exit code (null).
  expect(await exitWithin(running.stop('SIGHUP'), 12_000)).toBe(0);
  const messages = running.output().split('\n').filter((line) => line.startsWith('{')).map((line) => (JSON.parse(line) as { msg: string }).msg);
  // The version, for an operator to tell what an upgrade left running; the last line, a clean stop from a crash.
  const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
  expect(messages).toContain(`Home Guard ${version} is serving ${running.url}`);
  expect(messages).toContain('SIGHUP: draining, then shutting down');
  expect(messages.at(-1)).toBe('stopped');
});

it('sends the mails of requests already answered before it stops: a reset link asked for just before', async () => {
  // A relay that greets only after the drain: nothing of the mail has left when closing begins.
  const relay = await startSmtpSink({ greetAfterMs: 2_500 });
  try {
    const running = await start({ SMTP_URL: relay.url });
    const post = (url: string, body: unknown) => fetch(`${running.url}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('/api/v1/register', { full_name: 'Ada Lovelace', email: 'ada@example.com', password: 'Analytical1' })).status).toBe(200);
    expect((await post('/api/v1/auth/password-reset', { email: 'ada@example.com' })).status).toBe(200);
    expect(await exitWithin(running.stop('SIGTERM'), 12_000)).toBe(0);
    expect(relay.subjectsTo('ada@example.com')).toHaveLength(1);
  } finally {
    await relay.close();
  }
});
