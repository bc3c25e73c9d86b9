import { sql } from 'kysely';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { migrateToLatest, openDatabase } from '../../server/db/database';
import { DatabaseProblem } from '../../server/db/database-problems';
import { call, registerAndLogin, startTestApp, validRegistration } from '../support/test-app';
import { startRelay } from '../support/postgres-relay';
import { adminQuery, createTestDatabase, testDatabaseKind } from '../support/test-database';

const UNAVAILABLE = { error: 'The service is temporarily unavailable; try again shortly' };

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Log lines as objects, from a logger the app writes to. */
function logLines() {
  const lines: string[] = [];
  return { stream: { write: (line: string) => lines.push(line) }, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe.runIf(testDatabaseKind() === 'postgres')('PostgreSQL going away under a running server', () => {
  async function appThroughRelay() {
    const database = await createTestDatabase(undefined, inject('templateDatabase'));
    cleanups.push(() => database.drop());
    const relay = await startRelay(new URL(database.databaseUrl!));
    cleanups.push(() => relay.close());
    const { db } = openDatabase({ databaseUrl: relay.urlThrough(database.databaseUrl!), dataDir: database.dataDir, postgresConnectTimeoutMs: 500 });
    cleanups.push(() => db.destroy());
    await migrateToLatest(db);
    const log = logLines();
    const config = loadConfig({ PUBLIC_URL: 'http://127.0.0.1:8080', DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl! });
    const app = await buildApp(config, { db, logger: { level: 'error', stream: log.stream } });
    cleanups.push(() => app.close());
    await app.ready();
    return { app, relay, log, database };
  }

  it('answers 503 with Retry-After while it cannot be reached, logs the cause on one line, and serves again once it is back', async () => {
    const { app, relay, log } = await appThroughRelay();
    const ada = await registerAndLogin(app);
    await relay.cut();

    const profile = await call(app, 'GET', '/api/v1/auth/profile', { token: ada.access });
    expect([profile.status, profile.body, profile.headers['retry-after']]).toEqual([503, UNAVAILABLE, '5']);
    const signIn = await call(app, 'POST', '/api/v1/auth/login', { body: { email: ada.email, password: ada.password } });
    expect([signIn.status, signIn.body]).toEqual([503, UNAVAILABLE]);
    // The web app keeps an account whose refresh fails with a 5xx (sw/broker): nobody is signed out.
    const refresh = await call(app, 'POST', '/api/v1/auth/refresh', { token: ada.refresh, body: {} });
    expect([refresh.status, refresh.body]).toEqual([503, UNAVAILABLE]);
    const grant = await app.inject({ method: 'POST', url: '/api/v1/oauth/token', payload: 'grant_type=refresh_token&refresh_token=x&client_id=gitea', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect([grant.statusCode, grant.json(), grant.headers['retry-after']]).toEqual([503, { error: 'temporarily_unavailable', error_description: UNAVAILABLE.error }, '5']);
    expect((await call(app, 'GET', '/readyz')).status).toBe(503);

    const outages = log.entries().filter((entry) => entry.msg === 'the database could not answer; the request was refused with 503');
    expect(outages).toHaveLength(4);
    expect(outages[0]!.database).toBe(`cannot connect to PostgreSQL at 127.0.0.1:${relay.port}: ECONNREFUSED`);
    expect(log.entries().filter((entry) => entry.err !== undefined)).toEqual([]);

    await relay.mend();
    expect((await call(app, 'GET', '/api/v1/auth/profile', { token: ada.access })).status).toBe(200);
    expect((await call(app, 'POST', '/api/v1/auth/login', { body: { email: ada.email, password: ada.password } })).status).toBe(200);
  });

  // pg emits an error on a checked-out client whose connection drops, which ends the process
  // unless something listens (Vitest reports it as an uncaught exception).
  it('keeps running when connections drop under queries in flight, and serves again once they can be made', async () => {
    const { app, relay } = await appThroughRelay();
    const ada = await registerAndLogin(app);
    relay.breakOnNextSend();
    const [profile, signIn] = await Promise.all([
      call(app, 'GET', '/api/v1/auth/profile', { token: ada.access }),
      call(app, 'POST', '/api/v1/auth/login', { body: { email: ada.email, password: ada.password } }),
    ]);
    expect([profile.status, profile.body, signIn.status, signIn.body]).toEqual([503, UNAVAILABLE, 503, UNAVAILABLE]);
    await relay.mend();
    expect((await call(app, 'GET', '/api/v1/auth/profile', { token: ada.access })).status).toBe(200);
  });

  it('refuses writes with 503 while PostgreSQL is read-only (a standby before a failover), and serves reads', async () => {
    const { app, database } = await appThroughRelay();
    const ada = await registerAndLogin(app);
    const name = new URL(database.databaseUrl!).pathname.slice(1);
    const readOnly = async (on: boolean) => {
      await adminQuery(`alter database ${name} set default_transaction_read_only = ${on ? 'on' : 'off'}`);
      // The setting holds from a connection's start: the app's open ones are ended, and it makes new ones.
      await adminQuery('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
      await new Promise((resolve) => setTimeout(resolve, 100));
    };
    await readOnly(true);

    const signIn = await call(app, 'POST', '/api/v1/auth/login', { body: { email: ada.email, password: ada.password } });
    expect([signIn.status, signIn.body]).toEqual([503, UNAVAILABLE]);
    expect((await call(app, 'GET', '/api/v1/auth/profile', { token: ada.access })).status).toBe(200);

    await readOnly(false);
    expect((await call(app, 'POST', '/api/v1/auth/login', { body: { email: ada.email, password: ada.password } })).status).toBe(200);
  });

  it('answers 503 once a server that takes the connection but never answers has had its time, instead of holding the request', async () => {
    const { app, relay, log } = await appThroughRelay();
    const ada = await registerAndLogin(app);
    await relay.makeTarpit();

    const profile = await call(app, 'GET', '/api/v1/auth/profile', { token: ada.access });
    expect([profile.status, profile.body]).toEqual([503, UNAVAILABLE]);
    expect(log.entries().at(-1)!.database).toBe(`cannot connect to PostgreSQL at 127.0.0.1:${relay.port}: it did not answer in time`);
  });

  it('refuses to start on a server that never answers, naming it, instead of waiting for ever', async () => {
    const relay = await startRelay(new URL('postgres://127.0.0.1:5432'));
    cleanups.push(() => relay.close());
    await relay.makeTarpit();
    const { db } = openDatabase({ databaseUrl: `postgres://hg:S3cretPass@127.0.0.1:${relay.port}/hg`, dataDir: '/nonexistent', postgresConnectTimeoutMs: 300 });
    cleanups.push(() => db.destroy());
    const refusal = await migrateToLatest(db).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DatabaseProblem);
    expect((refusal as Error).message).toBe(`cannot connect to PostgreSQL at 127.0.0.1:${relay.port}: it did not answer in time`);
  });
});

describe.runIf(testDatabaseKind() === 'sqlite')('a SQLite database that cannot grow', () => {
  it('refuses writes with 503 while the file is full, serves reads, and takes writes again once there is room', async () => {
    const log = logLines();
    const t = await startTestApp({}, { logger: { level: 'error', stream: log.stream } });
    cleanups.push(() => t.close());
    const ada = await registerAndLogin(t.app);
    // The disk full, as SQLite sees it: no page may be added to the file, and the free ones are used up.
    await sql`create table filler (bytes blob)`.execute(t.db);
    await sql`pragma max_page_count = 1`.execute(t.db);
    for (let i = 0; i < 10_000; i++) {
      const full = await sql`insert into filler values (randomblob(3000))`.execute(t.db).then(
        () => false,
        (error: { code?: string }) => error.code === 'SQLITE_FULL',
      );
      if (full) break;
    }

    let refused: Awaited<ReturnType<typeof call>> | undefined;
    const emails: string[] = [];
    for (let i = 0; i < 30 && !refused; i++) {
      const registration = validRegistration();
      const answer = await call(t.app, 'POST', '/api/v1/register', { body: registration });
      if (answer.status === 200) emails.push(registration.email);
      else refused = answer;
    }
    expect([refused?.status, refused?.body, refused?.headers['retry-after']]).toEqual([503, UNAVAILABLE, '5']);
    expect(log.entries().at(-1)).toMatchObject({ database: 'SQLite could not use the database file: database or disk is full (SQLITE_FULL)' });
    expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: ada.access })).status).toBe(200);

    await sql`pragma max_page_count = 1073741823`.execute(t.db);
    await sql`drop table filler`.execute(t.db);
    const later = await call(t.app, 'POST', '/api/v1/register', { body: validRegistration() });
    expect(later.status).toBe(200);
    const signIn = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: ada.email, password: ada.password } });
    expect(signIn.status).toBe(200);
  });
});
