import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runTs } from '../support/server-process';
import { call, registerAndLogin, startTestApp, turnOnTwoStep, type TestApp } from '../support/test-app';
import { clockBehindDatabase } from '../../server/operations/clock-check';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => t.close());

it('answers /healthz, and /readyz only while the database is reachable and migrated; no cache keeps either answer', async () => {
  for (const [url, body] of [['/healthz', { status: 'ok' }], ['/readyz', { status: 'ready' }]] as const) {
    const answer = await call(t.app, 'GET', url);
    expect([answer.status, answer.body, answer.headers['cache-control']], url).toEqual([200, body, 'no-store']);
  }
  await sql`delete from kysely_migration where name = '2026-11-22T0200-oidc'`.execute(t.db);
  const migrating = await call(t.app, 'GET', '/readyz');
  expect(migrating.status).toBe(503);
  expect([migrating.body, migrating.headers['cache-control']]).toEqual([{ status: 'migrating' }, 'no-store']);
});

it('says at start when the clock reads earlier than the latest event the database recorded', async () => {
  await registerAndLogin(t.app); // recorded: registered, signed in
  const now = Date.now();
  expect(await clockBehindDatabase(t.db, now)).toBeUndefined();
  expect(await clockBehindDatabase(t.db, now - 60_000), 'a replica a minute behind another').toBeUndefined();
  // The clock is set back to between the earliest event, made a year old, and the latest.
  const [earliest] = await t.db.selectFrom('audit_events').select('id').orderBy('at').limit(1).execute();
  await t.db.updateTable('audit_events').set({ at: now - 365 * 86_400_000 }).where('id', '=', earliest!.id).execute();
  const [latest] = await t.db.selectFrom('audit_events').select('at').orderBy('at', 'desc').limit(1).execute();
  const latestAt = Number(latest!.at);
  expect(await clockBehindDatabase(t.db, latestAt - 5 * 60_000), 'five minutes behind, the most a replica may be').toBeUndefined();
  const minute = (at: number) => `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  expect(await clockBehindDatabase(t.db, latestAt - 3 * 3_600_000)).toBe(
    `the clock reads ${minute(latestAt - 3 * 3_600_000)}, before the latest event the database recorded (${minute(latestAt)}): set the system clock (NTP), or times written now will read as older than they are`,
  );
});

it('backs up a live SQLite database with every account in it (PostgreSQL is pointed to pg_dump)', async () => {
  const users = [await registerAndLogin(t.app), await registerAndLogin(t.app)];
  const target = path.join(t.database.dataDir, 'backups', 'home-guard-backup.db');
  const env = { DATA_DIR: t.database.dataDir, ...(t.database.databaseUrl ? { DATABASE_URL: t.database.databaseUrl } : {}) };
  const run = runTs('server/cli/admin.ts', ['backup', '--to', target], env);
  const code = await run.exited;
  if (t.database.kind === 'postgres') {
    expect(code).toBe(2);
    expect(run.stderr()).toMatch(/pg_dump/);
    return;
  }
  expect(code, run.stderr()).toBe(0);
  expect(run.stdout()).toMatch(/backed up \d+ pages/);
  // It holds the signing keys and password hashes: its owner's only, as the database is.
  expect([statSync(target).mode & 0o777, statSync(path.dirname(target)).mode & 0o777]).toEqual([0o600, 0o700]);
  expect(statSync(path.join(t.database.dataDir, 'home-guard.db')).mode & 0o777).toBe(0o600);
  const restored = new SqliteDatabase(target, { readonly: true });
  try {
    expect(restored.pragma('integrity_check', { simple: true })).toBe('ok');
    const emails = (restored.prepare('select email from users order by email').all() as Array<{ email: string }>).map((row) => row.email);
    expect(emails).toEqual(users.map((u) => u.email).sort());
  } finally {
    restored.close();
  }
  // A second backup never overwrites the first.
  const again = runTs('server/cli/admin.ts', ['backup', '--to', target], env);
  expect(await again.exited).toBe(2);
  expect(existsSync(target)).toBe(true);
}, 120_000); // two runs of the admin command through tsx

it('logs a line per request only at LOG_LEVEL=debug or trace, with the path and never the query string', async () => {
  const lines: string[] = [];
  const stream = { write: (line: string) => lines.push(line) };
  const hint = 'eyJhbGciOiJSUzI1NiJ9.secret-hint.signature';
  for (const level of ['info', 'debug', 'trace']) {
    await t.close();
    t = await startTestApp({}, { logger: { level, stream } });
    lines.length = 0;
    await call(t.app, 'GET', `/signout?id_token_hint=${hint}`);
    await call(t.app, 'GET', '/healthz');
    const requests = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.msg === 'request');
    if (level === 'info') expect(requests).toEqual([]);
    else expect(requests.map(({ method, path, status }) => ({ method, path, status }))).toEqual([{ method: 'GET', path: '/signout', status: expect.any(Number) }, { method: 'GET', path: '/healthz', status: 200 }]);
    // Wherever Fastify logs a request itself (an error handler failing), without its query too.
    t.app.log.error({ req: { method: 'GET', url: `/signout?id_token_hint=${hint}`, headers: {} } }, 'request errored');
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ req: { method: 'GET', path: '/signout' } });
    expect(lines.join('')).not.toContain('secret-hint');
  }
});

it('serves Prometheus metrics only when METRICS=true, counting routes and sign-in results', async () => {
  expect((await call(t.app, 'GET', '/metrics')).status).toBe(404);
  await t.close();
  t = await startTestApp({ METRICS: 'true' });
  const user = await registerAndLogin(t.app);
  const signIn = (email: string, password: string) => call(t.app, 'POST', '/api/v1/auth/login', { body: { email, password } });
  for (let i = 0; i < 2; i++) await signIn(user.email, 'Wrong-pass1');
  expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email } })).status).toBe(400);
  await call(t.app, 'POST', '/api/v1/auth/refresh', { token: user.refresh, body: {} });
  // Past the account's limit of failures, a sign-in is throttled, not failed.
  const other = await registerAndLogin(t.app);
  for (let i = 0; i < 5; i++) expect((await signIn(other.email, 'Wrong-pass1')).status).toBe(401);
  expect((await signIn(other.email, 'Wrong-pass1')).status).toBe(429);
  // With two-step sign-in on, the answer asking for the code is not a failed sign-in.
  await turnOnTwoStep(t, user);
  expect((await signIn(user.email, user.password)).body.field).toBe('code');
  const scrape = await t.app.inject({ url: '/metrics' });
  expect([scrape.headers['content-type'], scrape.headers['cache-control']]).toEqual(['text/plain; version=0.0.4', 'no-store']);
  const text = scrape.body;
  expect(text).toContain('http_requests_total{method="POST",route="/api/v1/auth/login",status="200"} 2');
  expect(text).toContain('http_requests_total{method="POST",route="/api/v1/auth/login",status="401"} 8');
  expect(text).toContain('home_guard_logins_total{result="success"} 2');
  expect(text).toContain('home_guard_logins_total{result="failure"} 8');
  expect(text).toContain('home_guard_logins_total{result="throttled"} 1');
  expect(text).toContain('home_guard_logins_total{result="code_asked"} 1');
  expect(text).toContain('home_guard_refreshes_total{result="success"} 1');
  // Durations in seconds: every sign-in took well under 5.
  expect(text).toContain('http_request_duration_seconds_bucket{method="POST",route="/api/v1/auth/login",le="5"} 12');
  expect(text).toContain('http_request_duration_seconds_count{method="POST",route="/api/v1/auth/login"} 12');
});
