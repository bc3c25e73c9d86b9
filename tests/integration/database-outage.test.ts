import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import * as client from 'openid-client';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { migrateToLatest, openDatabase, sqliteFile } from '../../server/db/database';
import { DatabaseProblem } from '../../server/db/database-problems';
import { REFUSED_ATTEMPT_MESSAGE } from '../../server/operations/refused-attempts';
import { noisyPngOf } from '../support/images';
import { oidcJson, startOidcFixture } from '../support/oidc-fixture';
import { call, capturedLog, registerAndLogin, startTestApp, validRegistration } from '../support/test-app';
import { startRelay } from '../support/postgres-relay';
import { adminQuery, createTestDatabase, testDatabaseKind } from '../support/test-database';

const UNAVAILABLE = { error: 'The service is temporarily unavailable; try again shortly' };

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.runIf(testDatabaseKind() === 'postgres')('PostgreSQL going away under a running server', () => {
  async function appThroughRelay(level: 'error' | 'warn' = 'error') {
    const database = await createTestDatabase(undefined, inject('templateDatabase'));
    cleanups.push(() => database.drop());
    const relay = await startRelay(new URL(database.databaseUrl!));
    cleanups.push(() => relay.close());
    const { db } = openDatabase({ databaseUrl: relay.urlThrough(database.databaseUrl!), dataDir: database.dataDir, postgresConnectTimeoutMs: 500, postgresQueryTimeoutMs: 1_000, lockWaitMs: 300 });
    cleanups.push(() => db.destroy());
    await migrateToLatest(db);
    const log = capturedLog();
    const config = loadConfig({ PUBLIC_URL: 'http://127.0.0.1:8080', DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl! });
    const app = await buildApp(config, { db, logger: { ...log.logger, level } });
    cleanups.push(() => app.close());
    await app.ready();
    return { app, relay, log, database, db };
  }

  it('answers 503 with Retry-After while it cannot be reached, logs the cause on one line, and serves again once it is back', async () => {
    const { app, relay, log } = await appThroughRelay();
    const ada = await registerAndLogin(app);
    await relay.cut();

    const profile = await call(app, 'GET', '/api/v1/auth/profile', { token: ada.access });
    expect([profile.status, profile.body, profile.headers['retry-after']]).toEqual([503, UNAVAILABLE, '5']);
    const signIn = await call(app, 'POST', '/api/v1/auth/login', { body: { email: ada.email, password: ada.password } });
    expect([signIn.status, signIn.body]).toEqual([503, UNAVAILABLE]);
    // A throttle that cannot count has not said no: no "asked too often".
    const reset = await call(app, 'POST', '/api/v1/auth/password-reset', { body: { email: ada.email } });
    expect([reset.status, reset.body]).toEqual([503, UNAVAILABLE]);
    // The web app keeps an account whose refresh fails with a 5xx (sw/broker): nobody is signed out.
    const refresh = await call(app, 'POST', '/api/v1/auth/refresh', { token: ada.refresh, body: {} });
    expect([refresh.status, refresh.body]).toEqual([503, UNAVAILABLE]);
    const grant = await app.inject({ method: 'POST', url: '/api/v1/oauth/token', payload: 'grant_type=refresh_token&refresh_token=x&client_id=gitea', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect([grant.statusCode, grant.json(), grant.headers['retry-after']]).toEqual([503, { error: 'temporarily_unavailable', error_description: UNAVAILABLE.error }, '5']);
    const readiness = await call(app, 'GET', '/readyz');
    expect([readiness.status, readiness.body]).toEqual([503, { status: 'database unreachable' }]);

    const outages = log.entries().filter((entry) => entry.msg === 'the database could not answer; the request was refused with 503');
    expect(outages).toHaveLength(5);
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
    const { app, database, log } = await appThroughRelay('warn');
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
    // The sign-in read the account's devices, then failed at the throttle's count, its first write:
    // the database's failure, not a throttling for fail2ban to ban the address for.
    expect(log.entries().filter((entry) => entry.msg === REFUSED_ATTEMPT_MESSAGE)).toEqual([]);
    expect((await call(app, 'GET', '/api/v1/auth/profile', { token: ada.access })).status).toBe(200);

    await readOnly(false);
    expect((await call(app, 'POST', '/api/v1/auth/login', { body: { email: ada.email, password: ada.password } })).status).toBe(200);
  });

  // A forgotten psql transaction holding a row: each request waiting on it used to hold its
  // connection for ever, and ten of them every request after.
  it('refuses a write with 503 once another session has held a lock it needs past lock_timeout, and serves reads meanwhile', async () => {
    const { app, relay, log, database } = await appThroughRelay();
    const ada = await registerAndLogin(app);
    const psql = new pg.Client({ connectionString: database.databaseUrl });
    await psql.connect();
    cleanups.push(() => psql.end());
    await psql.query('begin');
    await psql.query('select id from users where id = $1 for update', [ada.id]);

    const signIn = () => call(app, 'POST', '/api/v1/auth/login', { body: { email: ada.email, password: ada.password } });
    const refused = await signIn();
    expect([refused.status, refused.body, refused.headers['retry-after']]).toEqual([503, UNAVAILABLE, '5']);
    expect(log.entries().at(-1)!.database).toBe(
      `PostgreSQL at 127.0.0.1:${relay.port}: another session has held a lock this request needs for longer than lock_timeout (an open transaction in psql?) (SQLSTATE 55P03)`,
    );
    expect((await call(app, 'GET', '/api/v1/auth/profile', { token: ada.access })).status).toBe(200);

    await psql.query('commit');
    expect((await signIn()).status).toBe(200);
  });

  it('answers 503 once a server that takes the connection but never answers has had its time, instead of holding the request', async () => {
    const { app, relay, log } = await appThroughRelay();
    const ada = await registerAndLogin(app);
    await relay.makeTarpit();

    const profile = await call(app, 'GET', '/api/v1/auth/profile', { token: ada.access });
    expect([profile.status, profile.body]).toEqual([503, UNAVAILABLE]);
    expect(log.entries().at(-1)!.database).toBe(`cannot connect to PostgreSQL at 127.0.0.1:${relay.port}: it did not answer in time`);
  });

  it('answers 503 once no connection of its pool has come free in its time, and serves again when one does', async () => {
    const { app, relay, log, db } = await appThroughRelay();
    const ada = await registerAndLogin(app);
    // Ten transactions (the pool's size) hold every connection, as ten slow requests would.
    let holding = 0;
    let letGo: () => void = () => {};
    const held = new Promise<void>((resolve) => (letGo = resolve));
    cleanups.push(async () => letGo()); // before the database is closed, should the test fail
    const transactions = Array.from({ length: 10 }, () =>
      db.transaction().execute(async (tx) => {
        await sql`select 1`.execute(tx);
        holding++;
        await held;
      }),
    );
    await expect.poll(() => holding).toBe(10);

    const profile = await call(app, 'GET', '/api/v1/auth/profile', { token: ada.access });
    expect([profile.status, profile.body, profile.headers['retry-after']]).toEqual([503, UNAVAILABLE, '5']);
    expect(log.entries().at(-1)!.database).toBe(`no connection to PostgreSQL at 127.0.0.1:${relay.port} came free in time: every connection of the pool is busy`);
    letGo();
    await Promise.all(transactions);
    expect((await call(app, 'GET', '/api/v1/auth/profile', { token: ada.access })).status).toBe(200);
  });

  it('answers 503 once a server that falls silent on the open connections has had its time, and serves again once it answers', async () => {
    const { app, relay, log } = await appThroughRelay();
    const ada = await registerAndLogin(app);
    relay.silence();
    const profile = await call(app, 'GET', '/api/v1/auth/profile', { token: ada.access });
    expect([profile.status, profile.body]).toEqual([503, UNAVAILABLE]);
    expect(log.entries().at(-1)!.database).toBe(`PostgreSQL at 127.0.0.1:${relay.port} did not answer a query in time`);
    expect((await call(app, 'GET', '/readyz')).status).toBe(503);
    // The connections that waited are ended, not lent again to wait for answers that will not come.
    relay.resume();
    expect((await call(app, 'GET', '/api/v1/auth/profile', { token: ada.access })).status).toBe(200);
    expect((await call(app, 'GET', '/readyz')).status).toBe(200);
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
    const log = capturedLog();
    const t = await startTestApp({}, { logger: { ...log.logger, level: 'error' } });
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
    // A picture too: the server's fault, told as such, not as something wrong with the upload.
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(await noisyPngOf(256, 256))], { type: 'image/png' }), 'avatar.png');
    const picture = await t.app.inject({ method: 'PUT', url: '/api/v1/avatar', headers: { authorization: `Bearer ${ada.access}` }, payload: form });
    // SQLite ended its transaction itself; rolling it back again failed, and that was answered (a 500).
    expect([picture.statusCode, picture.json(), picture.headers['retry-after']]).toEqual([503, UNAVAILABLE, '5']);
    expect(log.entries().filter((entry) => entry.err !== undefined), 'no stack').toEqual([]);
    expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: ada.access })).status).toBe(200);

    await sql`pragma max_page_count = 1073741823`.execute(t.db);
    await sql`drop table filler`.execute(t.db);
    const later = await call(t.app, 'POST', '/api/v1/register', { body: validRegistration() });
    expect(later.status).toBe(200);
    const signIn = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: ada.email, password: ada.password } });
    expect(signIn.status).toBe(200);
  });
});

describe.runIf(testDatabaseKind() === 'sqlite')('a SQLite database whose write lock another process holds', () => {
  /** A second connection to the app's database file, as the admin command or a sqlite3 shell opens it. */
  function anotherProcess(dataDir: string) {
    const other = new SqliteDatabase(sqliteFile(dataDir));
    cleanups.push(async () => other.close());
    other.exec('begin immediate');
    return { letGo: () => other.exec('commit') };
  }

  // SQLite's busy handler used to wait inside the statement, holding up the event loop: every
  // request stood still while the lock was held (this test's own reads and its letting go too).
  // Then a write waiting through Kysely held its one connection, and every read through Kysely
  // (Home, Devices) queued behind it.
  it('serves reads meanwhile, and finishes the writes that waited once the lock is let go', async () => {
    const f = await startOidcFixture();
    cleanups.push(() => f.close());
    const service = await f.createService();
    const relyingParty = await f.relyingParty(service);
    const { tokens } = await f.signInToService(relyingParty);
    const lock = anotherProcess(f.t.database.dataDir);

    let settled = 0;
    const counted = <T>(write: Promise<T>) => write.finally(() => settled++);
    const writes = Promise.all([
      counted(oidcJson(f.issuer, 'POST', '/api/v1/register', validRegistration())), // a transaction through Kysely, after a hash
      counted(oidcJson(f.issuer, 'DELETE', '/api/v1/auth/sessions', {}, f.user.access)), // one through Kysely at once
      counted(client.refreshTokenGrant(relyingParty, tokens.refresh_token!)), // the grant's own transaction
      counted(oidcJson(f.issuer, 'POST', '/api/v1/auth/login', { email: f.user.email, password: 'Not-her-pass1' })), // one statement: the failure counted
    ]);
    const profile = await oidcJson(f.issuer, 'GET', '/api/v1/auth/profile', undefined, f.user.access);
    expect(profile.status).toBe(200);
    const claims = await client.fetchUserInfo(relyingParty, tokens.access_token, client.skipSubjectCheck);
    expect(claims.sub).toBe(profile.body.id);
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const read of ['/api/v1/auth/sessions', '/api/v1/auth/launcher']) {
      expect((await oidcJson(f.issuer, 'GET', read, undefined, f.user.access)).status).toBe(200);
    }
    expect(settled).toBe(0);

    lock.letGo();
    const [registered, otherDevicesSignedOut, refreshed, wrongPassword] = await writes;
    expect(registered.status).toBe(200);
    expect(otherDevicesSignedOut.status).toBe(200);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect([wrongPassword.status, wrongPassword.body]).toEqual([401, { error: 'Invalid email or password' }]);
  });

  it('refuses a write with 503 once it has waited its time, naming the cause, and takes writes again after', async () => {
    const database = await createTestDatabase(undefined, inject('templateDatabase'));
    cleanups.push(() => database.drop());
    const { db } = openDatabase({ databaseUrl: undefined, dataDir: database.dataDir, lockWaitMs: 300 });
    cleanups.push(() => db.destroy());
    const log = capturedLog();
    const config = loadConfig({ PUBLIC_URL: 'http://127.0.0.1:8080', DATA_DIR: database.dataDir });
    const app = await buildApp(config, { db, logger: { ...log.logger, level: 'error' } });
    cleanups.push(() => app.close());
    const ada = await registerAndLogin(app);
    const lock = anotherProcess(database.dataDir);

    const refused = await call(app, 'POST', '/api/v1/register', { body: validRegistration() });
    expect([refused.status, refused.body, refused.headers['retry-after']]).toEqual([503, UNAVAILABLE, '5']);
    expect(log.entries().at(-1)).toMatchObject({
      database: "another process has held the SQLite database's write lock for over 0.3 s (the admin command, a sqlite3 shell, a backup tool?)",
    });
    expect((await call(app, 'GET', '/api/v1/auth/profile', { token: ada.access })).status).toBe(200);

    lock.letGo();
    expect((await call(app, 'POST', '/api/v1/register', { body: validRegistration() })).status).toBe(200);
  });
});
