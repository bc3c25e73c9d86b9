import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { UserSessionsService } from '../../server/sessions/user-sessions-service';
import { AuthenticatorApps } from '../../server/two-step/authenticator-apps';
import { totpCode, totpStep } from '../../server/two-step/totp';
import { holdTheNextCallAfterItsAnswer, holdTheNextCallBeforeItRuns, meetingAt } from '../support/hold-a-call';
import { call, registerAndLogin, startTestApp, turnOnTwoStep, type TestApp } from '../support/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await t.close();
});

/** Holds every sign-in after its password was found right, until `release` is called. */
function holdSignInsAfterThePassword() {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  let reached: () => void = () => {};
  const held = new Promise<void>((resolve) => (reached = resolve));
  const checkSignIn = AuthenticatorApps.prototype.checkSignIn;
  vi.spyOn(AuthenticatorApps.prototype, 'checkSignIn').mockImplementation(async function (this: AuthenticatorApps, ...args: Parameters<typeof checkSignIn>) {
    reached();
    await gate;
    return checkSignIn.apply(this, args);
  });
  return { held, release };
}

it('a sign-in with the old password that was being checked while the password changed opens no session', async () => {
  const owner = await registerAndLogin(t.app);
  const { held, release } = holdSignInsAfterThePassword();
  const thief = call(t.app, 'POST', '/api/v1/auth/login', { body: { email: owner.email, password: owner.password } });
  await held;
  vi.restoreAllMocks();
  const changed = await call(t.app, 'POST', '/api/v1/auth/password', { token: owner.access, body: { current_password: owner.password, password: 'Changed-it1' } });
  expect(changed.status).toBe(200);
  release();
  expect((await thief).status).toBe(401);
  const open = await t.db.selectFrom('user_sessions').select('id').where('user_id', '=', owner.id).where('revoked_at', 'is', null).execute();
  expect(open).toHaveLength(1); // the owner's own, kept by the change
  expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: owner.email, password: 'Changed-it1' } })).status).toBe(200);
});

it('a sign-in whose account an administrator deleted while its password was being checked is refused as an unknown account, not a 500', async () => {
  const admin = await registerAndLogin(t.app);
  const user = await registerAndLogin(t.app);
  const { held, release } = holdSignInsAfterThePassword();
  const signIn = call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password } });
  await held;
  vi.restoreAllMocks();
  expect((await call(t.app, 'DELETE', `/api/v1/admin/users/${user.id}`, { token: admin.access })).status).toBe(200);
  release();
  expect(await signIn).toMatchObject({ status: 401, body: { error: 'Invalid email or password' } });
});

it('a sign-in whose account an administrator deleted just after its session opened is refused, not a 500, and leaves nothing behind', async () => {
  const admin = await registerAndLogin(t.app);
  const user = await registerAndLogin(t.app);
  const { held, release } = holdTheNextCallAfterItsAnswer(UserSessionsService.prototype, 'start');
  const signIn = call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password } });
  await held;
  expect((await call(t.app, 'DELETE', `/api/v1/admin/users/${user.id}`, { token: admin.access })).status).toBe(200);
  release();
  expect(await signIn).toMatchObject({ status: 401, body: { error: 'Invalid email or password' } });
  expect(await t.db.selectFrom('user_sessions').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
});

it('lets one of two sign-ins sent at once with the same authenticator code in, and tells the other it was used (RFC 6238 §5.2)', async () => {
  const user = await registerAndLogin(t.app);
  const { secret } = await turnOnTwoStep(t, user);
  const nextCode = totpCode(secret, totpStep(t.app.services.clock()) + 1); // the one that turned it on is used
  // Each is held once it has found the code right and unused, just before it uses it up, until
  // both are: only using it up tells them apart.
  const apps = AuthenticatorApps.prototype as unknown as { useStep(userId: string, step: number): Promise<boolean> };
  const signIn = () => call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password, code: nextCode } });
  const answers = await meetingAt(() => holdTheNextCallBeforeItRuns(apps, 'useStep'), [signIn, signIn]);
  expect(answers.map((answer) => [answer.status, answer.body.error]).sort()).toEqual([[200, undefined], [401, 'This code was already used; wait for the next one']]);
});
