import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { totpCode, totpStep } from '../../server/two-step/totp';
import { startSmtpSink } from '../support/smtp-sink';
import { call, proveEmail, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => t.close());

type User = Awaited<ReturnType<typeof registerAndLogin>>;
const login = (email: string, password: string, code?: string) => call(t.app, 'POST', '/api/v1/auth/login', { body: code === undefined ? { email, password } : { email, password, code } });
const status = (user: User) => call(t.app, 'GET', '/api/v1/auth/two-step', { token: user.access });
/**
 * The code an authenticator app shows now, or `steps` time steps from now, by the app's clock:
 * it stands still in these tests, so real time crossing a 30-second step cannot move the codes.
 */
const codeFor = (secret: string, steps = 0) => totpCode(secret, totpStep(t.app.services.clock()) + steps);

/** Turns it on as a person would, and answers with the app's secret; `recoveryCodes` gets the codes shown. */
async function turnOn(user: User, recoveryCodes: string[] = []): Promise<string> {
  await proveEmail(t.db, user.id);
  const setup = await call(t.app, 'POST', '/api/v1/auth/two-step/setup', { token: user.access });
  expect(setup.status).toBe(200);
  const secret = setup.body.secret as string;
  expect(setup.body.uri).toBe(`otpauth://totp/Home%20Guard%3A${encodeURIComponent(user.email)}?secret=${secret}&issuer=Home%20Guard&algorithm=SHA1&digits=6&period=30`);
  const on = await call(t.app, 'PUT', '/api/v1/auth/two-step', { token: user.access, body: { secret, code: codeFor(secret), current_password: user.password } });
  expect(on.status).toBe(200);
  expect(on.body).toMatchObject({ enabled: true, recovery_codes_left: 10 });
  recoveryCodes.push(...(on.body.recovery_codes as string[]));
  return secret;
}

describe('two-step sign-in', () => {
  it('is off until a code made from the set-up secret turns it on; then sign-in asks for a code', async () => {
    const user = await registerAndLogin(t.app);
    expect((await status(user)).body).toEqual({ enabled: false, since: null, recovery_codes_left: 0 });
    // Not before the email is proved: the account may be someone else's registration of that address.
    const unproved = { error: 'Verify your email before turning on two-step sign-in' };
    expect(await call(t.app, 'POST', '/api/v1/auth/two-step/setup', { token: user.access })).toMatchObject({ status: 409, body: unproved });
    const picked = 'A'.repeat(32);
    expect(await call(t.app, 'PUT', '/api/v1/auth/two-step', { token: user.access, body: { secret: picked, code: codeFor(picked), current_password: user.password } })).toMatchObject({ status: 409, body: unproved });
    await proveEmail(t.db, user.id);
    const setup = await call(t.app, 'POST', '/api/v1/auth/two-step/setup', { token: user.access });
    const secret = setup.body.secret as string;

    const wrong = await call(t.app, 'PUT', '/api/v1/auth/two-step', { token: user.access, body: { secret, code: codeFor(secret, 5), current_password: user.password } });
    expect([wrong.status, wrong.body.field]).toEqual([400, 'code']);
    expect((await status(user)).body.enabled, 'a wrong code turns nothing on').toBe(false);
    expect((await login(user.email, user.password)).status).toBe(200);

    const spaced = codeFor(secret).replace(/^(\d{3})/, '$1 ');
    const on = await call(t.app, 'PUT', '/api/v1/auth/two-step', { token: user.access, body: { secret, code: spaced, current_password: user.password } });
    expect(on.status, 'apps show "123 456"').toBe(200);
    expect(on.body.since).toBe(new Date(t.app.services.clock()).toISOString());
    const twice = await call(t.app, 'PUT', '/api/v1/auth/two-step', { token: user.access, body: { secret, code: codeFor(secret, 1), current_password: user.password } });
    expect([twice.status, twice.body.error]).toEqual([409, 'Two-step sign-in is already on']);

    const asked = await login(user.email, user.password);
    expect([asked.status, asked.body]).toEqual([401, { error: 'Enter the 6-digit code from your authenticator app', field: 'code' }]);
    expect((await login(user.email, 'Wrong-password1', codeFor(secret, 1))).body.error, 'a right code does not make a wrong password right').toBe('Invalid email or password');
    const bad = await login(user.email, user.password, codeFor(secret, 4));
    expect([bad.status, bad.body.field]).toEqual([401, 'code']);
    const reused = await login(user.email, user.password, codeFor(secret));
    expect([reused.status, reused.body.error], 'the code that turned it on is used up').toEqual([401, 'This code was already used; wait for the next one']);

    const signedIn = await login(user.email, user.password, codeFor(secret, 1));
    expect([signedIn.status, signedIn.body.error]).toEqual([200, undefined]);
    expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: signedIn.body.access })).status).toBe(200);
    const replay = await login(user.email, user.password, codeFor(secret, 1));
    expect([replay.status, replay.body.error], 'a code works once').toEqual([401, 'This code was already used; wait for the next one']);
  });

  it('refuses to turn on a new setup while it is on: the app and the recovery codes stay as they were', async () => {
    const user = await registerAndLogin(t.app);
    const recoveryCodes: string[] = [];
    const secret = await turnOn(user, recoveryCodes);
    const newSetup = await call(t.app, 'POST', '/api/v1/auth/two-step/setup', { token: user.access });
    const newSecret = newSetup.body.secret as string;
    const again = await call(t.app, 'PUT', '/api/v1/auth/two-step', { token: user.access, body: { secret: newSecret, code: codeFor(newSecret), current_password: user.password } });
    expect([again.status, again.body.error, again.body.recovery_codes]).toEqual([409, 'Two-step sign-in is already on', undefined]);
    expect((await login(user.email, user.password, codeFor(newSecret, 1))).status, "the new setup's app signs in nobody").toBe(401);
    expect((await login(user.email, user.password, codeFor(secret, 1))).status).toBe(200);
    expect((await login(user.email, user.password, recoveryCodes[0])).status).toBe(200);
  });

  it("tells the operator when refused codes were made minutes off the server's clock, as a server without NTP refuses every code", async () => {
    await t.close();
    const lines: string[] = [];
    t = await startTestApp({}, { logger: { level: 'warn', stream: { write: (line) => lines.push(line) } } });
    const warnings = () => lines.map((line) => JSON.parse(line).msg as string).filter((msg) => msg.includes('authenticator code'));
    const user = await registerAndLogin(t.app);
    const secret = await turnOn(user);
    // The app's clock four minutes ahead of the server's.
    expect((await login(user.email, user.password, codeFor(secret, 8))).status).toBe(401);
    expect(warnings()).toEqual([
      "a refused authenticator code was made 240 s after the time on this server's clock; codes are taken within 30 s of it. If codes keep failing, set the server's clock (NTP)",
    ]);
    expect((await login(user.email, user.password, codeFor(secret, -2))).status).toBe(401);
    expect(warnings()[1]).toContain('made 60 s before the time');
    // A guess no step within ten minutes makes says nothing, nor does a code taken.
    const nearby = new Set(Array.from({ length: 41 }, (_, at) => codeFor(secret, at - 20)));
    const guess = Array.from({ length: 42 }, (_, at) => String(at).padStart(6, '0')).find((code) => !nearby.has(code))!;
    expect((await login(user.email, user.password, guess)).status).toBe(401);
    expect((await login(user.email, user.password, codeFor(secret, 1))).status).toBe(200);
    expect(warnings()).toHaveLength(2);

    // Setting up, where a clock that is off shows first.
    const other = await registerAndLogin(t.app);
    await proveEmail(t.db, other.id);
    const setup = await call(t.app, 'POST', '/api/v1/auth/two-step/setup', { token: other.access });
    const wrong = await call(t.app, 'PUT', '/api/v1/auth/two-step', { token: other.access, body: { secret: setup.body.secret, code: codeFor(setup.body.secret, -6), current_password: other.password } });
    expect(wrong.status).toBe(400);
    expect(warnings()[2]).toContain('made 180 s before the time');
  });

  it('counts wrong codes with wrong passwords, so guessing codes is throttled', async () => {
    const user = await registerAndLogin(t.app);
    const secret = await turnOn(user);
    const answers: number[] = [];
    // App codes and recovery codes count together.
    for (let i = 0; i < 6; i++) answers.push((await login(user.email, user.password, i % 2 ? codeFor(secret, 10 + i) : `0000${i}-00000`)).status);
    expect(answers).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await login(user.email, user.password, codeFor(secret, 1))).status, 'refused while throttled, even with the right code').toBe(429);
  });

  it('refuses the second step for a day after 20 refused ones, a success between them or not; a new password starts them again', async () => {
    const user = await registerAndLogin(t.app);
    const secret = await turnOn(user);
    const refuse = async (times: number) => {
      for (let i = 1; i <= times; i++) {
        expect((await login(user.email, user.password, codeFor(secret, 1000 + i))).status).toBe(401);
        if (i % 4 === 0) t.advance(61_000); // within the five a minute of LOGIN_THROTTLE
      }
    };
    await refuse(12);
    t.advance(31_000);
    expect((await login(user.email, user.password, codeFor(secret))).status, 'the owner signs in between').toBe(200);
    await refuse(8);
    t.advance(31_000);
    const refused = await login(user.email, user.password, codeFor(secret));
    expect([refused.status, refused.body.error], 'even the right code').toEqual([429, 'Too many failed attempts; try again in 24 hours']);
    expect((await login(user.email, 'Wrong-password1', codeFor(secret))).body.error, 'a wrong password is still told as such').toBe('Invalid email or password');
    expect((await login(user.email, user.password)).body.field, 'the password alone is still asked for the code, which is refused').toBe('code');

    const changed = await call(t.app, 'POST', '/api/v1/auth/password', { token: user.access, body: { current_password: user.password, password: 'Brand-new-1' } });
    expect(changed.status).toBe(200);
    t.advance(31_000);
    expect((await login(user.email, 'Brand-new-1', codeFor(secret))).status).toBe(200);
  });

  it('turns on only with the secret of the latest setup: not one the client picked, nor an hour-old one (ASVS 2.8.3)', async () => {
    const user = await registerAndLogin(t.app);
    await proveEmail(t.db, user.id);
    let access = user.access;
    const turnOn = (secret: string) => call(t.app, 'PUT', '/api/v1/auth/two-step', { token: access, body: { secret, code: codeFor(secret), current_password: user.password } });
    const setup = async () => (await call(t.app, 'POST', '/api/v1/auth/two-step/setup', { token: access })).body.secret as string;
    // Access tokens last less than an hour: a new one after each wait.
    const wait = async (ms: number) => {
      t.advance(ms);
      access = (await login(user.email, user.password)).body.access as string;
    };
    const stale = { error: 'This setup key is no longer valid: it is over an hour old, or a newer setup replaced it. Start again with a new one', field: 'secret' };
    expect(await turnOn('A'.repeat(32)), 'before any setup').toMatchObject({ status: 400, body: stale });
    const first = await setup();
    expect(await turnOn('A'.repeat(32)), 'a secret the client picked').toMatchObject({ status: 400, body: stale });
    const second = await setup();
    expect(second).not.toBe(first);
    expect(await turnOn(first), 'a setup replaced by a newer one').toMatchObject({ status: 400, body: stale });
    await wait(3_600_000);
    expect(await turnOn(second), 'an hour-old setup').toMatchObject({ status: 400, body: stale });
    expect((await login(user.email, user.password)).status, 'nothing was turned on: sign-in asks for no code').toBe(200);

    const third = await setup();
    await wait(3_599_000);
    expect((await turnOn(third)).status, 'a setup just under an hour old').toBe(200);
    expect(await t.db.selectFrom('authenticator_app_setups').selectAll().execute(), 'used up').toEqual([]);
    expect((await turnOn(third)).body.error, 'the same request again').toBe('Two-step sign-in is already on');
  });

  it('turns on only with the current password too, as turning off does: a session alone cannot enrol an app (ASVS 3.7.1)', async () => {
    const user = await registerAndLogin(t.app);
    await proveEmail(t.db, user.id);
    const secret = (await call(t.app, 'POST', '/api/v1/auth/two-step/setup', { token: user.access })).body.secret as string;
    const turnOn = (body: Record<string, unknown>) => call(t.app, 'PUT', '/api/v1/auth/two-step', { token: user.access, body: { secret, code: codeFor(secret), ...body } });

    const missing = await turnOn({});
    expect([missing.status, missing.body]).toEqual([400, { error: 'current_password: Current password is required', field: 'current_password' }]);
    const wrong = await turnOn({ current_password: 'Not-it-at-all1' });
    expect([wrong.status, wrong.body]).toEqual([400, { error: 'The current password is wrong', field: 'current_password' }]);
    expect((await status(user)).body, 'a wrong password turns nothing on').toEqual({ enabled: false, since: null, recovery_codes_left: 0 });
    expect(await t.db.selectFrom('recovery_codes').selectAll().execute()).toEqual([]);
    expect((await login(user.email, user.password)).status, 'and sign-in asks for no code').toBe(200);

    // Wrong guesses count with failed sign-ins (the sign-in above cleared the first): five lock the password out for a while.
    for (let i = 0; i < 4; i++) expect((await turnOn({ current_password: `Wrong-${i}A` })).status).toBe(400);
    expect((await login(user.email, 'Wrong-pass1')).status).toBe(401);
    expect((await turnOn({ current_password: user.password })).status, 'refused while throttled, even with the right password').toBe(429);
    expect((await status(user)).body.enabled).toBe(false);
    t.advance(61_000);

    const on = await call(t.app, 'PUT', '/api/v1/auth/two-step', { token: user.access, body: { secret, code: codeFor(secret), current_password: user.password } });
    expect([on.status, on.body.enabled], 'the right password, once the lockout has passed').toEqual([200, true]);
  });

  it('turns off with the current password, not a code, and refuses a wrong one', async () => {
    const user = await registerAndLogin(t.app);
    const secret = await turnOn(user);
    const wrong = await call(t.app, 'DELETE', '/api/v1/auth/two-step', { token: user.access, body: { current_password: 'Not-it-at-all1' } });
    expect([wrong.status, wrong.body]).toEqual([400, { error: 'The current password is wrong', field: 'current_password' }]);
    expect((await status(user)).body.enabled).toBe(true);
    expect((await login(user.email, user.password)).status).toBe(401);

    const off = await call(t.app, 'DELETE', '/api/v1/auth/two-step', { token: user.access, body: { current_password: user.password } });
    expect([off.status, off.body]).toEqual([200, { enabled: false, since: null, recovery_codes_left: 0 }]);
    expect((await login(user.email, user.password)).status).toBe(200);
    expect((await login(user.email, user.password, codeFor(secret, 1))).status, 'a code sent anyway is ignored once it is off').toBe(200);
  });

  it('refuses bad input with a clear error and asks for a session', async () => {
    const user = await registerAndLogin(t.app);
    expect((await call(t.app, 'GET', '/api/v1/auth/two-step')).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/v1/auth/two-step/setup')).status).toBe(401);
    const badSecret = await call(t.app, 'PUT', '/api/v1/auth/two-step', { token: user.access, body: { secret: 'abc', code: '123456', current_password: user.password } });
    expect([badSecret.status, badSecret.body.error]).toEqual([400, 'secret: The setup key is not valid; start again']);
    const letters = await call(t.app, 'PUT', '/api/v1/auth/two-step', { token: user.access, body: { secret: 'A'.repeat(32), code: '12345a', current_password: user.password } });
    expect([letters.status, letters.body.error]).toEqual([400, 'code: The code is the 6 digits your authenticator app shows']);
    for (const code of ['abc', 'zzzzz-zzzzz', '3f9a2-c07b', '1234567']) {
      const loginLetters = await login(user.email, user.password, code);
      expect([loginLetters.status, loginLetters.body.error], code).toEqual([400, 'code: The code is the 6 digits your authenticator app shows, or a recovery code']);
    }
    expect((await call(t.app, 'POST', '/api/v1/auth/two-step/recovery-codes', { body: { current_password: user.password } })).status).toBe(401);
    const noPassword = await call(t.app, 'POST', '/api/v1/auth/two-step/recovery-codes', { token: user.access, body: {} });
    expect([noPassword.status, noPassword.body.field]).toEqual([400, 'current_password']);
    const whileOff = await call(t.app, 'POST', '/api/v1/auth/two-step/recovery-codes', { token: user.access, body: { current_password: user.password } });
    expect([whileOff.status, whileOff.body.error]).toEqual([409, 'Two-step sign-in is off; turn it on to get recovery codes']);
    expect(await t.db.selectFrom('recovery_codes').selectAll().execute()).toEqual([]);
    expect((await status(user)).body.enabled).toBe(false);
  });

  it('gives ten recovery codes when turned on; each signs in once in place of the app\'s code', async () => {
    const user = await registerAndLogin(t.app);
    const codes: string[] = [];
    const secret = await turnOn(user, codes);
    expect(codes).toHaveLength(10);
    const stored = await t.db.selectFrom('recovery_codes').select('code_hash').execute();
    expect(stored).toHaveLength(10);
    expect(JSON.stringify(stored), 'only hashes are kept').not.toContain(codes[0]!.slice(0, 5));

    const typed = codes[0]!.toUpperCase().replace('-', '');
    const signedIn = await login(user.email, user.password, typed);
    expect([signedIn.status, signedIn.body.error], 'in capitals, without the hyphen').toEqual([200, undefined]);
    expect((await status(user)).body.recovery_codes_left).toBe(9);
    for (const code of [codes[0]!, 'aaaaa-aaaaa']) {
      const refused = await login(user.email, user.password, code);
      expect([refused.status, refused.body]).toEqual([401, { error: 'This recovery code is not correct, or it was already used', field: 'code' }]);
    }
    expect((await login(user.email, 'Wrong-password1', codes[1])).body.error).toBe('Invalid email or password');
    expect((await status(user)).body.recovery_codes_left, 'a wrong password uses no code').toBe(9);

    const racing = await Promise.all([login(user.email, user.password, codes[1]), login(user.email, user.password, codes[1])]);
    expect(racing.map((answer) => answer.status).sort(), 'two sign-ins racing with one code: only one gets in').toEqual([200, 401]);
    expect((await login(user.email, user.password, codeFor(secret, 1))).status, 'the app still works').toBe(200);
    expect((await status(user)).body.recovery_codes_left).toBe(8);
    // The audit log tells a recovery code from the app's code: an owner who used none sees one was.
    const signIns = await t.db.selectFrom('audit_events').select('detail').where('user_id', '=', user.id).where('kind', '=', 'signed-in').orderBy('at').orderBy('id').execute();
    expect(signIns.map((event) => event.detail)).toEqual(['pwd', 'pwd otp mfa recovery-code', 'pwd otp mfa recovery-code', 'pwd otp mfa']);
  });

  it('makes new recovery codes in place of the old ones, after the password; turning off drops them', async () => {
    const user = await registerAndLogin(t.app);
    const old: string[] = [];
    const secret = await turnOn(user, old);
    await login(user.email, user.password, old[0]);
    const renew = (password: string) => call(t.app, 'POST', '/api/v1/auth/two-step/recovery-codes', { token: user.access, body: { current_password: password } });

    const wrong = await renew('Not-it-at-all1');
    expect([wrong.status, wrong.body]).toEqual([400, { error: 'The current password is wrong', field: 'current_password' }]);
    expect((await status(user)).body.recovery_codes_left, 'a wrong password changes nothing').toBe(9);

    const renewed = await renew(user.password);
    expect(renewed.status).toBe(200);
    const fresh = renewed.body.recovery_codes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => old.includes(code))).toEqual([]);
    expect((await status(user)).body.recovery_codes_left).toBe(10);
    expect((await login(user.email, user.password, old[1])).status, 'the old codes are gone').toBe(401);
    expect((await login(user.email, user.password, fresh[0])).status).toBe(200);

    await call(t.app, 'DELETE', '/api/v1/auth/two-step', { token: user.access, body: { current_password: user.password } });
    expect(await t.db.selectFrom('recovery_codes').selectAll().execute()).toEqual([]);
    const again: string[] = [];
    await turnOn(user, again);
    expect((await login(user.email, user.password, fresh[1])).status, 'codes from before turning off are gone').toBe(401);
    expect((await login(user.email, user.password, codeFor(secret, 1))).status, 'and so is the old app').toBe(401);
  });

  it('an administrator turns it off for someone who lost their app; the details say whether it is on', async () => {
    const admin = await registerAndLogin(t.app, { full_name: 'Ada Admin' });
    const user = await registerAndLogin(t.app);
    const detail = () => call(t.app, 'GET', `/api/v1/admin/users/${user.id}`, { token: admin.access });
    expect((await detail()).body.two_step_enabled).toBe(false);
    await turnOn(user);
    expect((await detail()).body.two_step_enabled).toBe(true);

    const byUser = await call(t.app, 'DELETE', `/api/v1/admin/users/${user.id}/two-step`, { token: user.access });
    expect(byUser.status, 'only administrators').toBe(403);
    expect((await call(t.app, 'DELETE', '/api/v1/admin/users/no-such-user/two-step', { token: admin.access })).status).toBe(404);
    expect((await login(user.email, user.password)).status).toBe(401);

    const off = await call(t.app, 'DELETE', `/api/v1/admin/users/${user.id}/two-step`, { token: admin.access });
    expect([off.status, off.body.two_step_enabled, off.body.email]).toEqual([200, false, user.email]);
    expect((await login(user.email, user.password)).status).toBe(200);
    expect((await status(user)).body.enabled).toBe(false);
  });

  it('records it turned off in the audit log only when it was on, by the person or by an administrator', async () => {
    const admin = await registerAndLogin(t.app, { full_name: 'Ada Admin' });
    const user = await registerAndLogin(t.app);
    const offEvents = async () => (await t.db.selectFrom('audit_events').select('actor_id').where('user_id', '=', user.id).where('kind', '=', 'two-step-off').execute()).map((event) => event.actor_id);
    const bySelf = () => call(t.app, 'DELETE', '/api/v1/auth/two-step', { token: user.access, body: { current_password: user.password } });
    const byAdmin = () => call(t.app, 'DELETE', `/api/v1/admin/users/${user.id}/two-step`, { token: admin.access, body: {} });

    expect([(await bySelf()).status, (await byAdmin()).status], 'never on: nothing to turn off').toEqual([200, 200]);
    expect(await offEvents()).toEqual([]);
    await turnOn(user);
    expect((await bySelf()).status).toBe(200);
    expect((await byAdmin()).status).toBe(200);
    expect(await offEvents(), 'the one that turned it off').toEqual([user.id]);
    await turnOn(user);
    expect((await byAdmin()).status).toBe(200);
    expect((await bySelf()).status).toBe(200);
    expect((await offEvents()).sort()).toEqual([admin.id, user.id].sort());
  });

  it('tells the owner of the first sign-in of the day with the right password and a refused code: the password is known', async () => {
    const smtp = await startSmtpSink();
    await t.close();
    t = await startTestApp({ SMTP_URL: smtp.url });
    try {
      const user = await registerAndLogin(t.app);
      await proveEmail(t.db, user.id);
      const secret = await turnOn(user);
      const subjects = () => smtp.subjectsTo(user.email);
      await expect.poll(subjects).toEqual(['Two-step sign-in is on for your Home Guard account']);
      expect((await login(user.email, 'Wrong-password1', codeFor(secret, 1000))).status).toBe(401);
      expect((await login(user.email, user.password, codeFor(secret, 1001))).status).toBe(401);
      expect((await login(user.email, user.password, codeFor(secret, 1002))).status).toBe(401);
      await expect.poll(subjects).toContain('A sign-in to Home Guard was stopped at the second step');
      await t.app.services.background.drain(); // every mail begun has reached the sink
      expect(subjects(), 'once a day, and not for a wrong password').toHaveLength(2);
      t.advance(24 * 3_600_000 + 1);
      expect((await login(user.email, user.password, codeFor(secret, 1003))).status).toBe(401);
      await expect.poll(() => subjects().length).toBe(3);
    } finally {
      await smtp.close();
    }
  });

  it('mails the person whenever it is turned on or off, saying who turned it off', async () => {
    const smtp = await startSmtpSink();
    await t.close();
    t = await startTestApp({ SMTP_URL: smtp.url });
    try {
      const admin = await registerAndLogin(t.app, { full_name: 'Ada Admin' });
      const user = await registerAndLogin(t.app);
      for (const person of [admin, user]) await proveEmail(t.db, person.id);
      const subjects = () => smtp.mails.filter((mail) => mail.to.includes(user.email)).map((mail) => /^Subject: (.+)$/m.exec(mail.raw)![1]);
      const codes: string[] = [];
      await turnOn(user, codes);
      await expect.poll(subjects).toEqual(['Two-step sign-in is on for your Home Guard account']);
      // A recovery code standing in for the app, and new codes, are told too: the owner may not have done either.
      await login(user.email, user.password, codes[0]);
      await expect.poll(subjects).toContain('A recovery code was used to sign in to Home Guard');
      await call(t.app, 'POST', '/api/v1/auth/two-step/recovery-codes', { token: user.access, body: { current_password: user.password } });
      await expect.poll(subjects).toContain('New recovery codes for your Home Guard account');
      const used = smtp.mails.find((mail) => mail.raw.includes('A recovery code was used'))!.raw.replace(/=\r?\n/g, '');
      expect(used).toMatch(/You have 9 recovery codes left\./);
      smtp.mails.splice(0);
      await call(t.app, 'DELETE', '/api/v1/auth/two-step', { token: user.access, body: { current_password: user.password } });
      await expect.poll(() => subjects().length).toBe(1);
      await turnOn(user);
      await call(t.app, 'DELETE', `/api/v1/admin/users/${user.id}/two-step`, { token: admin.access });
      await expect.poll(() => subjects().length).toBe(3);
      const raws = smtp.mails.filter((mail) => mail.to.includes(user.email)).map((mail) => mail.raw.replace(/=\r?\n/g, ''));
      expect(raws[0]).toMatch(/Two-step sign-in was turned off for your Home Guard account/);
      expect(raws[2]).toMatch(/An administrator turned off two-step sign-in for your Home Guard account/);
      // Turning off what is already off changes nothing, and says nothing.
      await call(t.app, 'DELETE', `/api/v1/admin/users/${user.id}/two-step`, { token: admin.access });
      await t.app.services.background.drain();
      expect(subjects()).toHaveLength(3);
      expect(smtp.mails.filter((mail) => mail.to.includes(admin.email))).toHaveLength(0);
    } finally {
      await smtp.close();
    }
  });
});
