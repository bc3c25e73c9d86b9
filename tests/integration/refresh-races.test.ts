import { decodeJwt } from 'jose';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { UserSessionsRepository } from '../../server/sessions/user-sessions-repository';
import { holdTheNextCallAfterItsAnswer } from '../support/hold-a-call';
import { call, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

// A first-party refresh reads its token with its session, then rotates it in one write that holds
// only if the token is still live. These hold a refresh between that read and that write while
// something else happens; sessions.test.ts races them with requests sent at once.

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp({ ACCESS_TOKEN_TTL: '60' }, { refreshGraceSeconds: 10 });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await t.close();
});

const refresh = (token: string) => call(t.app, 'POST', '/api/v1/auth/refresh', { token, body: {} });
const profileStatus = async (token: string) => (await call(t.app, 'GET', '/api/v1/auth/profile', { token })).status;
/** The answer to a refresh of `token` held between its read and its write while `meanwhile` runs. */
async function refreshHeldWhile(token: string, meanwhile: () => Promise<void>) {
  const { held, release } = holdTheNextCallAfterItsAnswer(UserSessionsRepository.prototype, 'findTokenInSession');
  const answer = refresh(token);
  await held;
  await meanwhile();
  release();
  return answer;
}
const sessionOf = (access: string) => t.db.selectFrom('user_sessions').selectAll().where('id', '=', decodeJwt(access).sid as string).executeTakeFirstOrThrow();
const liveTokensOf = async (access: string) => t.db.selectFrom('refresh_tokens').select('token_key').where('session_id', '=', (await sessionOf(access)).id).where('rotated_at', 'is', null).execute();
const reusesReported = () => t.db.selectFrom('audit_events').select('kind').where('kind', '=', 'token-reused').execute();

type Device = Awaited<ReturnType<typeof registerAndLogin>>;
const endings: Array<[string, (device: Device) => Promise<void>]> = [
  ['signed out on the device', async (device) => {
    expect((await call(t.app, 'POST', '/api/v1/auth/logout', { token: device.refresh, body: {} })).status).toBe(200);
  }],
  ['signed out from another device under Personal Info', async (device) => {
    const other = (await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: device.email, password: device.password } })).body;
    const id = decodeJwt(device.access).sid as string;
    expect((await call(t.app, 'DELETE', `/api/v1/auth/sessions/${id}`, { token: other.access, body: {} })).status).toBe(200);
  }],
  ['signed out by a new password set on another device', async (device) => {
    const other = (await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: device.email, password: device.password } })).body;
    expect((await call(t.app, 'POST', '/api/v1/auth/password', { token: other.access, body: { current_password: device.password, password: 'Second-life77' } })).status).toBe(200);
  }],
];

it.each(endings)('a refresh whose session is %s between its read and its write gets no tokens, and no copy is reported', async (_, end) => {
  const device = await registerAndLogin(t.app);
  const before = await sessionOf(device.access);
  const refreshed = await refreshHeldWhile(device.refresh, async () => {
    t.advance(1_000);
    await end(device);
  });
  expect(refreshed.status).toBe(401);
  expect(await liveTokensOf(device.access), 'no token was stored for the ended session').toEqual([]);
  const after = await sessionOf(device.access);
  expect(after.revoked_at).not.toBeNull();
  expect(after.last_active, 'nor was it slid on').toBe(before.last_active);
  expect(await reusesReported(), 'its token was withdrawn by the sign-out, not used twice').toEqual([]);
});

it('a refresh held past the grace window while its token was refreshed meanwhile is a copy: the session ends, and it is reported', async () => {
  const device = await registerAndLogin(t.app);
  let first!: Awaited<ReturnType<typeof refresh>>;
  const late = await refreshHeldWhile(device.refresh, async () => {
    t.advance(11_000);
    first = await refresh(device.refresh);
    expect(first.status).toBe(200);
  });
  expect(late.status).toBe(401);
  expect((await sessionOf(device.access)).revoked_at).not.toBeNull();
  expect(await profileStatus(first.body.access)).toBe(401);
  expect((await refresh(first.body.refresh)).status).toBe(401);
  expect(await reusesReported()).toEqual([{ kind: 'token-reused' }]);
});

it('a refresh held within the grace window while its token was refreshed meanwhile takes the place of that answer, as a retry of a lost one', async () => {
  const device = await registerAndLogin(t.app);
  const answer = await refreshHeldWhile(device.refresh, async () => {
    t.advance(2_000);
    expect((await refresh(device.refresh)).status).toBe(200);
  });
  expect(answer.status).toBe(200);
  expect(await liveTokensOf(device.access), "one live token: the held refresh's").toEqual([{ token_key: answer.body.refresh.split('.')[0] }]);
  expect(await profileStatus(answer.body.access)).toBe(200);
  expect((await refresh(answer.body.refresh)).status).toBe(200);
  expect(await reusesReported()).toEqual([]);
});

it('a refresh held while its successor was already used is a copy, within the grace window too', async () => {
  const device = await registerAndLogin(t.app);
  let third!: Awaited<ReturnType<typeof refresh>>;
  const late = await refreshHeldWhile(device.refresh, async () => {
    third = await refresh((await refresh(device.refresh)).body.refresh);
    expect(third.status).toBe(200);
  });
  expect(late.status).toBe(401);
  expect(await profileStatus(third.body.access)).toBe(401);
  expect(await reusesReported()).toEqual([{ kind: 'token-reused' }]);
});
