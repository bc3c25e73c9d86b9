import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { AuthenticatorApps } from '../../server/two-step/authenticator-apps';
import { totpCode, totpStep } from '../../server/two-step/totp';
import { holdTheNextCallAfterItsAnswer, meetingAt } from '../support/hold-a-call';
import { call, proveEmail, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await t.close();
});

type User = Awaited<ReturnType<typeof registerAndLogin>>;
const setup = async (user: User) => (await call(t.app, 'POST', '/api/v1/auth/two-step/setup', { token: user.access })).body.secret as string;
const turnOn = (user: User, secret: string) =>
  call(t.app, 'PUT', '/api/v1/auth/two-step', { token: user.access, body: { secret, code: totpCode(secret, totpStep(t.app.services.clock())), current_password: user.password } });
/** Held once it has read the person's latest setup, before it checks the code against it and turns it on. */
const holdATurnOnAfterItReadTheSetup = () => holdTheNextCallAfterItsAnswer(AuthenticatorApps.prototype as unknown as { latestSetup(userId: string): Promise<unknown> }, 'latestSetup');
const recoveryCodesStored = async (user: User) => (await t.db.selectFrom('recovery_codes').select('code_hash').where('user_id', '=', user.id).execute()).length;

it('a setup replaced while a turn-on was under way is not turned on: the newer one stays, and turns on', async () => {
  const user = await registerAndLogin(t.app);
  await proveEmail(t.db, user.id);
  const first = await setup(user);
  const { held, release } = holdATurnOnAfterItReadTheSetup();
  const turningOn = turnOn(user, first);
  await held;
  const second = await setup(user); // another tab, say: the app now holds this one
  release();
  expect(await turningOn).toMatchObject({ status: 400, body: { field: 'secret', error: expect.stringContaining('a newer setup replaced it') } });
  expect((await call(t.app, 'GET', '/api/v1/auth/two-step', { token: user.access })).body).toMatchObject({ enabled: false });
  expect(await recoveryCodesStored(user)).toBe(0);

  expect((await turnOn(user, second)).status).toBe(200);
  const app = await t.db.selectFrom('authenticator_apps').select('secret').where('user_id', '=', user.id).executeTakeFirstOrThrow();
  expect(app.secret).toBe(second);
});

it('of two turn-ons sent at once with one setup, one turns it on and the other is told it is on: one set of recovery codes', async () => {
  const user = await registerAndLogin(t.app);
  await proveEmail(t.db, user.id);
  const secret = await setup(user);
  const answers = await meetingAt(holdATurnOnAfterItReadTheSetup, [() => turnOn(user, secret), () => turnOn(user, secret)]);
  expect(answers.map((answer) => [answer.status, answer.body.error]).sort()).toEqual([
    [200, undefined],
    [409, 'Two-step sign-in is already on'],
  ]);
  expect(await recoveryCodesStored(user)).toBe(10);
  const events = await t.db.selectFrom('audit_events').select('kind').where('user_id', '=', user.id).where('kind', '=', 'two-step-on').execute();
  expect(events).toHaveLength(1);
});
