import { existsSync, readdirSync, utimesSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiServiceInputSchema } from '../../contract/services';
import { ExpiredRows, type Pruned } from '../../server/retention/expired-rows';
import { totpCode, totpStep } from '../../server/two-step/totp';
import { failingQueries } from '../support/failing-queries';
import { startSmtpSink } from '../support/smtp-sink';
import { call, capturedLog, proveEmail, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

const DAY = 24 * 3_600_000;
let t: TestApp;
beforeEach(async () => {
  // Sessions here are kept in use for 40 days, past the default 30-day maximum age.
  t = await startTestApp({ ACCESS_TOKEN_TTL: '60', SESSION_MAX_AGE: String(90 * 24 * 3600) });
});
afterEach(async () => t.close());

const refresh = (token: string) => call(t.app, 'POST', '/api/v1/auth/refresh', { token, body: {} });
const profile = (token: string) => call(t.app, 'GET', '/api/v1/auth/profile', { token });
/** Prunes pass after pass until one reaches now (each goes at most a day past the last), adding up what they deleted. */
async function pruneUpToNow(app = t.app): Promise<Pruned> {
  const total = Object.fromEntries(Object.keys(nothing).map((table) => [table, 0])) as Pruned;
  for (;;) {
    const { through, deleted } = await app.services.expiredRows.prune();
    for (const table of Object.keys(total) as Array<keyof Pruned>) total[table] += deleted[table];
    if (through === app.services.clock()) return total;
  }
}
const prune = () => pruneUpToNow();
const nothing: Pruned = { refresh_tokens: 0, service_tokens: 0, oauth_codes: 0, throttle: 0, password_resets: 0, authenticator_app_setups: 0, audit_events: 0, signing_keys: 0, user_sessions: 0, service_sessions: 0, outbox_mails: 0 };
const refreshTokens = () => t.db.selectFrom('refresh_tokens').select('token_key').execute();
const auditEvent = (id: string, at: number, userId: string | null = null) => ({ id, at, kind: 'signed-in', user_id: userId, actor_id: userId, service_id: null, ip_address: null, device_info: null, detail: null });

describe('pruning expired rows', () => {
  it('deletes the refresh tokens of ended sessions at once, and rotated ones after the refresh lifetime', async () => {
    const leaving = await registerAndLogin(t.app);
    const leavingNext = await refresh(leaving.refresh);
    expect((await call(t.app, 'POST', '/api/v1/auth/logout', { token: leavingNext.body.refresh, body: {} })).status).toBe(200);
    const staying = await registerAndLogin(t.app);
    const stayingNext = await refresh(staying.refresh);
    expect(await refreshTokens()).toHaveLength(4);

    expect((await prune()).refresh_tokens).toBe(2);
    expect(await refreshTokens()).toHaveLength(2);
    t.advance(20 * DAY);
    const later = await refresh(stayingNext.body.refresh);
    t.advance(20 * DAY);
    const latest = await refresh(later.body.refresh);
    expect([later.status, latest.status]).toEqual([200, 200]);

    // Rotated 40 days ago (past the 30-day refresh lifetime), 20 days ago, just now; and the live one.
    expect((await prune()).refresh_tokens).toBe(1);
    expect(await refreshTokens()).toHaveLength(3);
    // A copy of the deleted token is refused, and its session is no longer revoked by it.
    expect((await refresh(staying.refresh)).status).toBe(401);
    expect((await profile(latest.body.access)).status).toBe(200);
    // A copy still on record revokes the session, as before.
    expect((await refresh(stayingNext.body.refresh)).status).toBe(401);
    expect((await profile(latest.body.access)).status).toBe(401);
    expect(await prune()).toEqual({ ...nothing, refresh_tokens: 3 });
  });

  it('deletes service tokens that expired or whose session ended, codes a day past expiry, old throttle rows, expired reset links and audit events past 90 days', async () => {
    const user = await registerAndLogin(t.app);
    const service = await t.app.services.apiServices.create(apiServiceInputSchema.parse({ name: 'Grafana', description: 'Dashboards', redirect_uris: ['http://127.0.0.1:9/cb'], scopes: ['openid'], grant_types: ['authorization_code', 'refresh_token'] }));
    const now = t.app.services.clock();
    const session = (id: string, expires_at: number, revoked_at: number | null) => ({ id, service_id: service.id, user_id: user.id, user_session_id: null, scope: 'openid', ip_address: null, auth_time: now, amr: 'pwd', issued_at: now, expires_at, last_active: now, revoked_at });
    await t.db.insertInto('service_sessions').values([session('live', now + DAY, null), session('revoked', now + DAY, now), session('expired', now - 1, null)]).execute();
    const token = (token_key: string, service_session_id: string, expires_at: number, kind: 'access' | 'refresh' = 'access', used_at: number | null = null) => ({ token_key, verifier_hash: null, kind, scope: 'openid', service_session_id, created_at: now, expires_at, used_at });
    await t.db
      .insertInto('service_tokens')
      .values([
        token('live access', 'live', now + 60_000),
        token('used refresh', 'live', now + DAY, 'refresh', now),
        token('expired access', 'live', now - 1),
        token('of revoked', 'revoked', now + DAY, 'refresh'),
        token('of expired', 'expired', now + DAY, 'refresh'),
      ])
      .execute();
    const code = (code_hash: string, expires_at: number) => ({ code_hash, service_id: service.id, user_id: user.id, user_session_id: 'x', redirect_uri: 'http://127.0.0.1:9/cb', scope: 'openid', nonce: null, code_challenge: null, code_challenge_method: null, auth_time: now, amr: 'pwd', ip_address: null, created_at: now, expires_at, used_at: null, service_session_id: null });
    await t.db.insertInto('oauth_codes').values([code('fresh', now + 60_000), code('expired an hour ago', now - 3_600_000), code('expired two days ago', now - 2 * DAY)]).execute();
    // More old rows than one delete takes: the backlog goes in several.
    const old = Array.from({ length: 1_100 }, (_, at) => ({ key: `old ${at}`, window_start: now - 2 * DAY, failures: 5 }));
    await t.db.insertInto('throttle').values([{ key: 'recent', window_start: now - 60_000, failures: 3 }, ...old]).execute();
    const reset = (token_hash: string, expires_at: number) => ({ token_hash, user_id: user.id, created_at: now - 60_000, expires_at });
    await t.db.insertInto('password_resets').values([reset('live link', now + 60_000), reset('expired link', now - 1)]).execute();
    await t.db.insertInto('audit_events').values([auditEvent('91 days old', now - 91 * DAY, user.id), auditEvent('89 days old', now - 89 * DAY, user.id)]).execute();

    expect(await prune()).toEqual({ refresh_tokens: 0, service_tokens: 3, oauth_codes: 1, throttle: 1_100, password_resets: 1, authenticator_app_setups: 0, audit_events: 1, signing_keys: 0, user_sessions: 0, service_sessions: 0, outbox_mails: 0 });
    expect((await t.db.selectFrom('service_tokens').select('token_key').orderBy('token_key').execute()).map((row) => row.token_key)).toEqual(['live access', 'used refresh']);
    expect((await t.db.selectFrom('oauth_codes').select('code_hash').orderBy('code_hash').execute()).map((row) => row.code_hash)).toEqual(['expired an hour ago', 'fresh']);
    expect((await t.db.selectFrom('throttle').select('key').execute()).map((row) => row.key)).toEqual(['recent']);
    expect((await t.db.selectFrom('password_resets').select('token_hash').execute()).map((row) => row.token_hash)).toEqual(['live link']);
    expect(await t.db.selectFrom('audit_events').select('id').where('id', 'like', '%days old').execute()).toEqual([{ id: '89 days old' }]);
    // Sessions ended a moment ago stay: the administrators' lists show ended ones.
    expect(await t.db.selectFrom('service_sessions').select('id').execute()).toHaveLength(3);
    expect(await prune()).toEqual(nothing);
  });

  it("deletes authenticator app setups past their hour, and refuses them before that's done", async () => {
    const [ada, bea] = [await registerAndLogin(t.app), await registerAndLogin(t.app)];
    for (const user of [ada, bea]) await proveEmail(t.db, user.id);
    const now = t.app.services.clock();
    const secret = 'A'.repeat(32);
    await t.db
      .insertInto('authenticator_app_setups')
      .values([
        { user_id: ada.id, secret, created_at: now - 3_600_000 },
        { user_id: bea.id, secret, created_at: now - 3_599_000 },
      ])
      .execute();
    const turnOn = (user: typeof ada) => call(t.app, 'PUT', '/api/v1/auth/two-step', { token: user.access, body: { secret, code: totpCode(secret, totpStep(now)), current_password: user.password } });
    expect((await turnOn(ada)).body.field).toBe('secret');

    expect((await prune()).authenticator_app_setups).toBe(1);
    expect(await t.db.selectFrom('authenticator_app_setups').select('user_id').execute()).toEqual([{ user_id: bea.id }]);
    expect((await turnOn(bea)).status).toBe(200);
  });

  it('deletes sessions that ended longer ago than the audit log keeps events, live ones however old', async () => {
    const user = await registerAndLogin(t.app);
    const service = await t.app.services.apiServices.create(apiServiceInputSchema.parse({ name: 'Grafana', description: 'Dashboards', redirect_uris: ['http://127.0.0.1:9/cb'], scopes: ['openid'], grant_types: ['authorization_code', 'refresh_token'] }));
    const now = t.app.services.clock();
    const ended = { 'revoked 91 days ago': [now + DAY, now - 91 * DAY], 'revoked 89 days ago': [now + DAY, now - 89 * DAY], 'expired 91 days ago': [now - 91 * DAY, null], 'expired 89 days ago': [now - 89 * DAY, null], 'live for 200 days': [now + DAY, null] } as const;
    const rows = Object.entries(ended).map(([id, [expires_at, revoked_at]]) => ({ id, user_id: user.id, issued_at: now - 200 * DAY, last_active: now - 200 * DAY, expires_at, revoked_at, ip_address: null, amr: 'pwd' }));
    await t.db.insertInto('user_sessions').values(rows.map((row) => ({ ...row, device_info: '' }))).execute();
    await t.db.insertInto('service_sessions').values(rows.map((row) => ({ ...row, service_id: service.id, user_session_id: null, scope: 'openid', auth_time: row.issued_at }))).execute();
    // A token still on record in a long-ended session goes first.
    await t.db.insertInto('refresh_tokens').values({ token_key: 'old', verifier_hash: 'x', session_id: 'revoked 91 days ago', parent_key: null, created_at: now - 200 * DAY, rotated_at: null }).execute();

    expect(await prune()).toMatchObject({ refresh_tokens: 1, user_sessions: 2, service_sessions: 2 });
    const left = ['expired 89 days ago', 'live for 200 days', 'revoked 89 days ago'];
    expect((await t.db.selectFrom('user_sessions').select('id').where('id', 'in', Object.keys(ended)).orderBy('id').execute()).map((row) => row.id)).toEqual(left);
    expect((await t.db.selectFrom('service_sessions').select('id').orderBy('id').execute()).map((row) => row.id)).toEqual(left);
    expect((await profile(user.access)).status, 'the session signed in just now stays').toBe(200);
  });

  it('keeps audit events as many days as AUDIT_LOG_DAYS says', async () => {
    const yearLong = await startTestApp({ AUDIT_LOG_DAYS: '365' });
    try {
      const now = yearLong.app.services.clock();
      const daysOld = (days: number) => auditEvent(`${days} days old`, now - days * DAY);
      await yearLong.db.insertInto('audit_events').values([daysOld(366), daysOld(364), daysOld(91)]).execute();
      expect((await pruneUpToNow(yearLong.app)).audit_events).toBe(1);
      expect((await yearLong.db.selectFrom('audit_events').select('id').orderBy('at').execute()).map((row) => row.id)).toEqual(['364 days old', '91 days old']);
    } finally {
      await yearLong.close();
    }
  });

  it("deletes the outbox's mails (no SMTP_URL) once older than the audit log keeps events, as they tell of sign-ins too", async () => {
    const outbox = path.join(t.database.dataDir, 'outbox');
    const mailTo = async () => {
      const user = await registerAndLogin(t.app);
      await proveEmail(t.db, user.id);
      const before = existsSync(outbox) ? readdirSync(outbox) : [];
      expect((await call(t.app, 'POST', '/api/v1/auth/password-reset', { body: { email: user.email } })).status).toBe(200);
      await expect.poll(() => readdirSync(outbox).length).toBe(before.length + 1);
      return path.join(outbox, readdirSync(outbox).find((name) => !before.includes(name))!);
    };
    const now = t.app.services.clock();
    const writtenDaysAgo = (file: string, days: number) => utimesSync(file, new Date(now - days * DAY), new Date(now - days * DAY));
    const old = await mailTo();
    writtenDaysAgo(old, 91);
    const recent = await mailTo();
    writtenDaysAgo(recent, 89);
    expect((await prune()).outbox_mails).toBe(1);
    expect(readdirSync(outbox)).toEqual([path.basename(recent)]);
  });

  it('runs on a schedule, logging what it deleted; a pass that fails is logged and tried again at the next', async () => {
    const log = capturedLog();
    await t.db.insertInto('throttle').values({ key: 'old', window_start: t.app.services.clock() - 2 * DAY, failures: 5 }).execute();
    const firstPassFails = t.db.withPlugin(failingQueries('DeleteQueryNode', 'disk I/O error', 1));
    const expiredRows = new ExpiredRows(firstPassFails, { rotatedRefreshTokensKeptMs: DAY, auditEventsKeptMs: 90 * DAY, signingKeysKeptMs: 0 }, () => t.app.services.clock(), {});
    const pruning = expiredRows.schedule(pino(log.logger, log.logger.stream), 50, 10);
    await expect.poll(() => log.entries().length).toBeGreaterThanOrEqual(3);
    const lines = log.entries();
    await pruning.stop();
    expect(lines[0]).toMatchObject({ level: 40, msg: 'pruning expired rows failed; trying again at the next interval' });
    expect(lines[1]).toMatchObject({ level: 30, msg: 'expired rows pruned', pruned: { throttle: 1 } });
    expect(lines[2]).toMatchObject({ level: 30, msg: 'expired rows pruned', pruned: { throttle: 0 } });
    expect(await t.db.selectFrom('throttle').select('key').execute()).toEqual([]);
  });

  it('prunes with mail sent over SMTP, which keeps no outbox', async () => {
    const relay = await startSmtpSink();
    const smtp = await startTestApp({ SMTP_URL: relay.url });
    try {
      await smtp.db.insertInto('throttle').values({ key: 'old', window_start: smtp.app.services.clock() - 2 * DAY, failures: 5 }).execute();
      expect(await pruneUpToNow(smtp.app)).toEqual({ ...nothing, throttle: 1 });
    } finally {
      await smtp.close();
      await relay.close();
    }
  });
});

describe('pruning with the clock stepped ahead', () => {
  const pass = () => t.app.services.expiredRows.prune();

  it('deletes a day more of expiries a pass, so what a clock months ahead reads as expired is still there once it is set right', async () => {
    const user = await registerAndLogin(t.app);
    const now = t.app.services.clock();
    await t.db.insertInto('audit_events').values([auditEvent('89.5 days old', now - 89.5 * DAY, user.id), auditEvent('60 days old', now - 60 * DAY, user.id)]).execute();
    expect(await pass()).toEqual({ through: now, deleted: nothing });

    t.advance(200 * DAY);
    expect(await pass()).toEqual({ through: now + DAY, deleted: { ...nothing, audit_events: 1 } });
    expect(await pass()).toEqual({ through: now + 2 * DAY, deleted: nothing });

    // Set right: the passes go by the clock again, and the session it read as 170 days expired refreshes.
    t.advance(-200 * DAY + 60_000);
    expect(await pass()).toEqual({ through: now + 60_000, deleted: nothing });
    expect((await refresh(user.refresh)).status).toBe(200);
    expect((await t.db.selectFrom('audit_events').select('id').where('id', 'like', '%days old').execute()).map((row) => row.id)).toEqual(['60 days old']);
  });

  it('starts, before any pass, from the latest event recorded, and after a long stop catches up a day a pass', async () => {
    const user = await registerAndLogin(t.app);
    const now = t.app.services.clock();
    t.advance(100 * DAY);
    expect((await pass()).through).toBe(now + DAY);
    expect(await refreshTokens()).toHaveLength(1);
    // The session expired 70 days ago (30 days without use); its refresh token goes on the pass that reaches its expiry.
    let passes = 1;
    while ((await refreshTokens()).length > 0) {
      expect((await pass()).through).toBe(now + ++passes * DAY);
    }
    expect(passes).toBe(30);
    expect((await pruneUpToNow()).user_sessions, 'ended 70 days ago: kept as long as the audit log').toBe(0);
    expect((await refresh(user.refresh)).status).toBe(401);
  });
});

describe('pruning signing keys', () => {
  it('deletes a rotated-out key once its ID tokens can no longer come back as sign-out hints, and no other', async () => {
    const keys = () => t.db.selectFrom('signing_keys').select('kid').execute();
    expect(await keys()).toHaveLength(2);
    await t.app.services.keys.rotate('RS256', 3600);
    expect(await keys()).toHaveLength(3);
    // Unpublished an hour and six minutes on; read as hints for the 90-day SESSION_MAX_AGE after that.
    t.advance(89 * DAY);
    expect((await prune()).signing_keys).toBe(0);
    t.advance(2 * DAY);
    expect((await prune()).signing_keys).toBe(1);
    expect(await keys()).toHaveLength(2);
    const signedIn = await registerAndLogin(t.app);
    expect((await profile(signedIn.access)).status, 'the keys in use stay').toBe(200);
  });
});
