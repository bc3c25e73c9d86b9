import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => t.close());

const FIREFOX_ON_ANDROID = 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0';
const login = async (email: string, password: string, userAgent: string) => (await call(t.app, 'POST', '/api/v1/auth/login', { body: { email, password }, headers: { 'user-agent': userAgent } })).body;
const sessionsSeenBy = async (token: string) => (await call(t.app, 'GET', '/api/v1/auth/sessions', { token })).body.items as Array<Record<string, any>>;

describe("a person's own sessions", () => {
  it('lists where they are signed in, this device first, and signs out another device at once', async () => {
    const user = await registerAndLogin(t.app);
    const phone = await login(user.email, user.password, FIREFOX_ON_ANDROID);
    const other = await registerAndLogin(t.app, { email: 'someone.else@example.com' });

    const mine = await sessionsSeenBy(user.access);
    expect(mine).toHaveLength(2);
    expect(mine[0]).toMatchObject({ current: true });
    expect(mine[1]).toMatchObject({ current: false, ip_address: '127.0.0.1' });
    expect(JSON.parse(Buffer.from(mine[1]!.device_info, 'base64').toString())).toMatchObject({ os: 'Android', browser: 'Mobile Firefox' });
    expect((await sessionsSeenBy(phone.access))[0]!.id, "the phone's own session is first on the phone").toBe(mine[1]!.id);

    const ended = await call(t.app, 'DELETE', `/api/v1/auth/sessions/${mine[1]!.id}`, { token: user.access });
    expect(ended.status).toBe(200);
    expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: phone.access })).status, 'refused at once').toBe(401);
    expect((await call(t.app, 'POST', '/api/v1/auth/refresh', { token: phone.refresh, body: {} })).status).toBe(401);
    expect((await sessionsSeenBy(user.access)).map((s) => s.id)).toEqual([mine[0]!.id]);
    expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: other.access })).status, 'nobody else is touched').toBe(200);
  });

  it("refuses this device's own session, someone else's, an ended one and no token, changing nothing", async () => {
    const user = await registerAndLogin(t.app);
    const other = await registerAndLogin(t.app, { email: 'someone.else@example.com' });
    const [own] = await sessionsSeenBy(user.access);
    const [theirs] = await sessionsSeenBy(other.access);

    const self = await call(t.app, 'DELETE', `/api/v1/auth/sessions/${own!.id}`, { token: user.access });
    expect([self.status, self.body.error]).toEqual([409, 'This is the device you are using; sign out from Home instead']);
    const foreign = await call(t.app, 'DELETE', `/api/v1/auth/sessions/${theirs!.id}`, { token: user.access });
    expect([foreign.status, foreign.body.error]).toEqual([404, 'session not found']);
    expect((await call(t.app, 'DELETE', '/api/v1/auth/sessions/no-such-session', { token: user.access })).status).toBe(404);
    expect((await call(t.app, 'GET', '/api/v1/auth/sessions')).status).toBe(401);
    expect((await call(t.app, 'DELETE', `/api/v1/auth/sessions/${theirs!.id}`)).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: other.access })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: user.access })).status).toBe(200);

    const second = await signInAgain(user.email, user.password);
    expect((await call(t.app, 'DELETE', `/api/v1/auth/sessions/${second}`, { token: user.access })).status).toBe(200);
    expect((await call(t.app, 'DELETE', `/api/v1/auth/sessions/${second}`, { token: user.access })).status, 'already ended').toBe(404);
  });

  it('signs out every other device at once, keeping this one and everyone else', async () => {
    const user = await registerAndLogin(t.app);
    const phone = await login(user.email, user.password, FIREFOX_ON_ANDROID);
    const laptop = await login(user.email, user.password, 'curl/8.5');
    const other = await registerAndLogin(t.app, { email: 'someone.else@example.com' });
    const otherPhone = await login(other.email, other.password, FIREFOX_ON_ANDROID);
    const signOutOthers = (token?: string) => call(t.app, 'DELETE', '/api/v1/auth/sessions', { token, body: {} });

    expect((await signOutOthers()).status).toBe(401);
    expect((await sessionsSeenBy(user.access)).length, 'nothing changed without a token').toBe(3);
    const answer = await signOutOthers(user.access);
    expect([answer.status, answer.body]).toEqual([200, { signed_out: 2 }]);
    for (const device of [phone, laptop]) {
      expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: device.access })).status, 'refused at once').toBe(401);
      expect((await call(t.app, 'POST', '/api/v1/auth/refresh', { token: device.refresh, body: {} })).status).toBe(401);
    }
    expect((await sessionsSeenBy(user.access)).map((s) => s.current)).toEqual([true]);
    expect((await call(t.app, 'POST', '/api/v1/auth/refresh', { token: user.refresh, body: {} })).status, 'this device stays').toBe(200);
    for (const device of [other, otherPhone]) expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: device.access })).status).toBe(200);
    expect((await signOutOthers(user.access)).body).toEqual({ signed_out: 0 });
  });
});

/** Signs in once more; answers the new session's id as the first device sees it. */
async function signInAgain(email: string, password: string): Promise<string> {
  const again = await login(email, password, FIREFOX_ON_ANDROID);
  return (await sessionsSeenBy(again.access))[0]!.id as string;
}
