import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import * as client from 'openid-client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RESET_MAIL_DELAY_MS, RESET_THROTTLE } from '../../server/accounts/password-resets';
import { hashToken, newOpaqueToken } from '../../server/sessions/tokens';
import { hashRecoveryCode } from '../../server/two-step/recovery-codes';
import { resetLinkFor } from '../e2e/support/api';
import { oidcJson, startOidcFixture } from '../support/oidc-fixture';
import { startSmtpSink } from '../support/smtp-sink';
import { call, capturedLog, proveEmail, registerAndLogin, startTestApp, turnOnTwoStep, validRegistration, type TestApp } from '../support/test-app';

let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpSink();
});
afterAll(async () => smtp.close());
beforeEach(async () => {
  t = await startTestApp({ SMTP_URL: smtp.url });
});
afterEach(async () => t.close());

const ask = (email: string, headers: Record<string, string> = {}) => call(t.app, 'POST', '/api/v1/auth/password-reset', { body: { email }, headers });
const confirm = (token: string, password: string) => call(t.app, 'POST', '/api/v1/auth/password-reset/confirm', { body: { token, password } });
const login = (email: string, password: string) => call(t.app, 'POST', '/api/v1/auth/login', { body: { email, password } });
const mailsTo = (email: string) => smtp.mails.filter((mail) => mail.to.includes(email));
const textsTo = (email: string) => smtp.textsTo(email);
const subjectsTo = (email: string) => smtp.subjectsTo(email);
/** A new account whose owner proved the address (no notice goes to one not proved). */
const verifiedUser = async (overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}) => {
  const user = await registerAndLogin(t.app, overrides, headers);
  await proveEmail(t.db, user.id);
  return user;
};

const resetRequests = (userId: string) => t.db.selectFrom('audit_events').select(['actor_id', 'ip_address']).where('user_id', '=', userId).where('kind', '=', 'password-reset-requested').execute();

/** The token in the newest reset mail to `email`, once it has arrived (the answer does not wait for it). */
async function tokenMailedTo(email: string, count = 1): Promise<string> {
  await expect.poll(() => mailsTo(email).length).toBe(count);
  const raw = textsTo(email).at(-1)!;
  return /\/auth\/reset-password#([\w-]+)/.exec(raw)![1]!;
}

describe('password reset by mail', () => {
  it('mails a link whose token sets a new password once, and signs the account out everywhere', async () => {
    const user = await registerAndLogin(t.app);
    expect((await ask(user.email.toUpperCase())).status).toBe(200);
    const token = await tokenMailedTo(user.email);
    const mail = mailsTo(user.email)[0]!.raw;
    expect(mail).toMatch(/Subject: Set a new Home Guard password/);
    // Sent by a machine: out-of-office replies stay away (RFC 3834).
    expect(mail).toMatch(/^Auto-Submitted: auto-generated\r?$/m);
    expect(mail).toContain('http://127.0.0.1:8080/auth/reset-password#');
    // In the owner's activity, from where it was asked, by nobody known to be them.
    expect(await resetRequests(user.id)).toEqual([{ actor_id: null, ip_address: '127.0.0.1' }]);

    const weak = await confirm(token, 'short');
    expect(weak.status).toBe(400);
    expect(weak.body.error).toBe('password: Password must be at least 8 characters long');
    expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: user.access })).status, 'a refused password changes nothing').toBe(200);

    expect((await confirm(token, 'Reset-and-go1')).status).toBe(200);
    // Set by the link's holder: the owner, as far as anyone knows, and said how in the activity.
    const changed = await t.db.selectFrom('audit_events').select(['actor_id', 'detail']).where('user_id', '=', user.id).where('kind', '=', 'password-changed').execute();
    expect(changed).toEqual([{ actor_id: user.id, detail: 'reset-by-link' }]);
    expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: user.access })).status).toBe(401);
    expect((await login(user.email, user.password)).status).toBe(401);
    expect((await login(user.email, 'Reset-and-go1')).status).toBe(200);

    const again = await confirm(token, 'Another-one22');
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('This link has expired or was already used. Ask for a new one.');
    expect((await login(user.email, 'Reset-and-go1')).status).toBe(200);
  });

  it('answers as usual when the relay is down, and logs that the link could not be sent, and whose it was', async () => {
    await t.close();
    const log = capturedLog();
    t = await startTestApp({ SMTP_URL: 'smtp://127.0.0.1:1' }, { logger: log.logger });
    const user = await registerAndLogin(t.app);
    expect((await ask(user.email)).status).toBe(200);
    await t.app.services.background.drain();
    expect(log.entries().filter((entry) => entry.msg === 'the password reset mail could not be sent')).toEqual([expect.objectContaining({ userId: user.id, err: expect.objectContaining({ message: expect.stringContaining('ECONNREFUSED') }) })]);
  });

  it('without SMTP_URL, writes the link to the outbox and names the file in the log', async () => {
    await t.close();
    const log = capturedLog();
    t = await startTestApp({}, { logger: log.logger });
    const user = await registerAndLogin(t.app);
    expect((await ask(user.email)).status).toBe(200);
    await t.app.services.background.drain();
    const outbox = path.join(t.database.dataDir, 'outbox');
    const [file, ...others] = readdirSync(outbox);
    expect([readFileSync(path.join(outbox, file!), 'utf8'), others]).toEqual([expect.stringContaining('Subject: Set a new Home Guard password'), []]);
    // The link signs in as its owner: for the server's user alone, as the database is.
    expect([statSync(path.join(outbox, file!)).mode & 0o777, statSync(outbox).mode & 0o777]).toEqual([0o600, 0o700]);
    expect(log.entries().filter((entry) => entry.msg.startsWith('no SMTP_URL'))).toEqual([expect.objectContaining({ msg: 'no SMTP_URL: the password reset mail was written to the outbox', userId: user.id, file: path.join(outbox, file!) })]);
  });

  it('answers an unknown address exactly as a known one, and mails nothing', async () => {
    const user = await registerAndLogin(t.app);
    const known = await ask(user.email);
    const unknown = await ask('nobody@example.com');
    expect([unknown.status, unknown.body]).toEqual([known.status, known.body]);
    await tokenMailedTo(user.email);
    expect(smtp.mails.filter((mail) => mail.to.includes('nobody@example.com'))).toEqual([]);
  });

  it('mails the link half a second to three after the answer, at random, so the work it makes does not tell either', async () => {
    await t.close();
    t = await startTestApp({ SMTP_URL: smtp.url }, { resetMailDelayMs: RESET_MAIL_DELAY_MS });
    const user = await registerAndLogin(t.app);
    const linkRows = () => t.db.selectFrom('password_resets').select('user_id').where('user_id', '=', user.id).execute();
    const asked = performance.now();
    expect((await ask(user.email)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await linkRows(), 'no work begun just after the answer').toEqual([]);
    await t.app.services.background.drain();
    expect(performance.now() - asked).toBeGreaterThan(RESET_MAIL_DELAY_MS[0] - 5);
    expect(await linkRows()).toHaveLength(1);
    await tokenMailedTo(user.email);
  });

  it('lets only the newest link work, for 30 minutes', async () => {
    const user = await registerAndLogin(t.app);
    await ask(user.email);
    const first = await tokenMailedTo(user.email);
    await ask(user.email);
    const second = await tokenMailedTo(user.email, 2);
    expect((await confirm(first, 'Reset-and-go1')).status).toBe(400);
    t.advance(30 * 60_000 - 1);
    expect((await confirm(second, 'Reset-and-go1')).status).toBe(200);
    await ask(user.email);
    const third = await tokenMailedTo(user.email, 3);
    t.advance(30 * 60_000);
    expect((await confirm(third, 'Reset-and-go2')).status).toBe(400);
    expect((await login(user.email, 'Reset-and-go1')).status).toBe(200);
    expect((await confirm('x'.repeat(101), 'Reset-and-go1')).body.error).toBe('token: This link is not valid');
  });

  it('throttles requests per address asked for, whether it has an account or not', async () => {
    for (let i = 0; i < 3; i++) expect((await ask('someone@example.com')).status).toBe(200);
    const fourth = await ask('SOMEONE@example.com');
    expect({ status: fourth.status, body: fourth.body }).toEqual({ status: 429, body: { error: 'Too many password reset links have been asked for; you can ask again in 15 minutes' } });
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
    expect((await ask('someone-else@example.com')).status).toBe(200);
    t.advance(15 * 60_000);
    expect((await ask('someone@example.com')).status).toBe(200);
  });

  it('mails one address no more links a day than its limit, however they are spread over the day', async () => {
    const user = await registerAndLogin(t.app);
    let answered = 0;
    for (let window = 0; window < 6; window++) {
      for (let i = 0; i < RESET_THROTTLE.account.limit; i++) if ((await ask(user.email, { 'x-forwarded-for': `203.0.113.${window}` })).status === 200) answered++;
      t.advance(15 * 60_000);
    }
    expect(answered).toBe(RESET_THROTTLE.accountDay.limit);
    await expect.poll(() => mailsTo(user.email).length).toBe(RESET_THROTTLE.accountDay.limit);
  });

  it('serves no more requests than the limit when they come all at once', async () => {
    const burst = await Promise.all(Array.from({ length: 8 }, () => ask('flood@example.com')));
    const statuses = burst.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(RESET_THROTTLE.account.limit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(8 - RESET_THROTTLE.account.limit);
  });

  it("clears the failed sign-ins of the account, the minute's and the hour's, so the new password works at once", async () => {
    const user = await registerAndLogin(t.app);
    for (let minute = 0; minute < 19; minute++) {
      for (let i = 0; i < 5; i++) expect((await login(user.email, `Wrong-${minute}-${i}`)).status).toBe(401);
      t.advance(61_000);
    }
    for (let i = 0; i < 5; i++) expect((await login(user.email, `Wrong-${i}`)).status).toBe(401);
    expect((await login(user.email, user.password)).status).toBe(429);
    await ask(user.email);
    expect((await confirm(await tokenMailedTo(user.email), 'Reset-and-go1')).status).toBe(200);
    expect((await login(user.email, 'Reset-and-go1')).status).toBe(200);
    t.advance(61_000);
    expect((await login(user.email, 'Wrong-after')).status, 'the hundred of the hour are forgotten too').toBe(401);
  });

  it("turns off a second step set up before the email was proved: the mailbox's holder gets in; a proved owner's second step stays", async () => {
    const squatted = await registerAndLogin(t.app);
    const owned = await registerAndLogin(t.app);
    await proveEmail(t.db, owned.id);
    // Set up as before the rule that an unproved address takes no second step (the squatted one marked so).
    const now = t.app.services.clock();
    await t.db.insertInto('authenticator_apps').values([squatted, owned].map((user) => ({ user_id: user.id, secret: 'A'.repeat(32), last_used_step: 0, created_at: now, set_up_unproved: user === squatted ? 1 : 0 }))).execute();
    await t.db.insertInto('recovery_codes').values([squatted, owned].map((user) => ({ user_id: user.id, code_hash: hashRecoveryCode(`${user.id.slice(0, 5)}-00000`) }))).execute();
    for (const user of [squatted, owned]) {
      await ask(user.email);
      expect((await confirm(await tokenMailedTo(user.email), 'Reset-and-go1')).status).toBe(200);
    }
    expect((await login(squatted.email, 'Reset-and-go1')).status).toBe(200);
    expect((await login(owned.email, 'Reset-and-go1')).body).toEqual({ error: 'Enter the 6-digit code from your authenticator app', field: 'code' });
    const turnedOff = await t.db.selectFrom('audit_events').select(['user_id', 'actor_id']).where('kind', '=', 'two-step-off').execute();
    expect(turnedOff).toEqual([{ user_id: squatted.id, actor_id: squatted.id }]);
    // The recovery codes go with the second step they stand in for, and stay with one that stays.
    expect((await t.db.selectFrom('recovery_codes').select('user_id').execute()).map((row) => row.user_id)).toEqual([owned.id]);
  });

  it('keeps the second step of an account whose email an administrator changed, through a reset mailed to the new address', async () => {
    const admin = await registerAndLogin(t.app);
    const user = await verifiedUser();
    const { recoveryCodes } = await turnOnTwoStep(t, user);
    const moved = `moved.${user.email}`;
    const edit = { full_name: 'Moved', email: moved, is_admin: false };
    expect((await call(t.app, 'PUT', `/api/v1/admin/users/${user.id}`, { token: admin.access, body: edit })).body).toMatchObject({ email: moved, two_step_enabled: true });
    await ask(moved);
    expect((await confirm(await tokenMailedTo(moved), 'Reset-and-go1')).status).toBe(200);
    // The new mailbox's holder has the password, not the app: the second step still asks.
    expect((await login(moved, 'Reset-and-go1')).body).toEqual({ error: 'Enter the 6-digit code from your authenticator app', field: 'code' });
    expect(await t.db.selectFrom('audit_events').select('kind').where('kind', '=', 'two-step-off').execute()).toEqual([]);
    // Nor its recovery codes.
    const recovered = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: moved, password: 'Reset-and-go1', code: recoveryCodes[0] } });
    expect(recovered.status).toBe(200);
  });

  it('greets by name only at a proved address: an unproved one was typed by whoever registered it, with a name of their choosing', async () => {
    const squatter = await registerAndLogin(t.app, { full_name: 'Your mailbox closes today. Keep it at https://evil.example' });
    const owner = await verifiedUser({ full_name: 'Ada Lovelace' });
    for (const user of [squatter, owner]) {
      await ask(user.email);
      await tokenMailedTo(user.email);
    }
    expect(textsTo(squatter.email).at(-1)).toMatch(/^Hello,\r?$/m);
    expect(textsTo(squatter.email).at(-1)).not.toContain('evil.example');
    expect(textsTo(owner.email).at(-1)).toMatch(/^Hello Ada Lovelace,\r?$/m);
  });

  it('mails no link to a disabled account, and sets no password for it with one mailed before', async () => {
    const admin = await registerAndLogin(t.app);
    const user = await registerAndLogin(t.app);
    await ask(user.email);
    const token = await tokenMailedTo(user.email);
    expect((await call(t.app, 'PUT', `/api/v1/admin/users/${user.id}/status`, { token: admin.access, body: { disabled: true } })).status).toBe(200);
    expect((await confirm(token, 'Reset-and-go1')).body.error).toBe('This link has expired or was already used. Ask for a new one.');

    // Answered as anyone else; the enabled account's link arrives, the disabled one's never does.
    const asked = await ask(user.email);
    expect([asked.status, asked.body]).toEqual([200, {}]);
    await ask(admin.email);
    await tokenMailedTo(admin.email);
    expect(subjectsTo(user.email)).toEqual(['Set a new Home Guard password']);
    expect(await resetRequests(user.id), 'no link, nothing recorded').toHaveLength(1);

    // A link stored in the instant the account was disabled, after its links were deleted.
    const late = newOpaqueToken();
    const now = t.app.services.clock();
    await t.db.insertInto('password_resets').values({ token_hash: hashToken(late), user_id: user.id, created_at: now, expires_at: now + 60_000 }).execute();
    expect(await confirm(late, 'Reset-and-go1')).toMatchObject({ status: 403, body: { error: 'This account is disabled; ask an administrator to enable it' } });
    expect((await call(t.app, 'PUT', `/api/v1/admin/users/${user.id}/status`, { token: admin.access, body: { disabled: false } })).status).toBe(200);
    expect((await login(user.email, user.password)).status, 'the password is unchanged').toBe(200);
  });

  it('signs the account out of every service too: their refresh and access tokens stop working (ASVS 3.3.3)', async () => {
    // A service's tokens need a listening issuer; its mails go to the outbox.
    const f = await startOidcFixture();
    try {
      const config = await f.relyingParty(await f.createService());
      const { tokens } = await f.signInToService(config, { scope: 'openid email offline_access' });
      const userinfo = async () => (await oidcJson(f.issuer, 'GET', '/api/v1/oauth/userinfo', undefined, tokens.access_token)).status;
      expect(await userinfo()).toBe(200);

      expect((await oidcJson(f.issuer, 'POST', '/api/v1/auth/password-reset', { email: f.user.email })).status).toBe(200);
      const link = await resetLinkFor(f.user.email, path.join(f.t.database.dataDir, 'outbox'));
      const token = new URL(link).hash.slice(1);
      expect((await oidcJson(f.issuer, 'POST', '/api/v1/auth/password-reset/confirm', { token, password: 'Reset-and-go1' })).status).toBe(200);
      expect(await userinfo()).toBe(401);
      await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    } finally {
      await f.close();
    }
  });
});

describe('the owner is mailed whenever their password changes (ASVS 2.2.3)', () => {
  it('by themselves, by a mailed link, or by an administrator, each told apart', async () => {
    const admin = await verifiedUser({ full_name: 'Ada Admin' });
    const user = await verifiedUser();

    const changed = await call(t.app, 'POST', '/api/v1/auth/password', { token: user.access, body: { current_password: user.password, password: 'Changed-it1' } });
    expect(changed.status).toBe(200);
    await expect.poll(() => subjectsTo(user.email)).toEqual(['Your Home Guard password was changed']);
    expect(textsTo(user.email)[0]).toContain('If this was not you, someone else has your password: reset it at once with "Forgot password?" on Sign In');

    await ask(user.email);
    const token = await tokenMailedTo(user.email, 2);
    expect((await confirm(token, 'Reset-it22')).status).toBe(200);
    await expect.poll(() => subjectsTo(user.email)).toEqual(['Your Home Guard password was changed', 'Set a new Home Guard password', 'Your Home Guard password was reset']);
    expect(textsTo(user.email)[2]).toContain('someone can read your mail');

    expect((await call(t.app, 'PUT', `/api/v1/admin/users/${user.id}/password`, { token: admin.access, body: { password: 'Admin-set33' } })).status).toBe(200);
    await expect.poll(() => subjectsTo(user.email)).toContain('Your Home Guard password was changed by an administrator');
    // An administrator's own is changed from Personal Info, with the current password: refused here, and nothing mailed.
    expect((await call(t.app, 'PUT', `/api/v1/admin/users/${admin.id}/password`, { token: admin.access, body: { password: 'Own-pass44' } })).status).toBe(409);
  });

  it('says nothing when the change is refused', async () => {
    const user = await verifiedUser();
    const wrong = await call(t.app, 'POST', '/api/v1/auth/password', { token: user.access, body: { current_password: 'Not-mine-1', password: 'Changed-it1' } });
    const weak = await call(t.app, 'POST', '/api/v1/auth/password', { token: user.access, body: { current_password: user.password, password: 'short' } });
    expect([wrong.body.error, weak.status]).toEqual(['The current password is wrong', 400]);
    // A change that did happen is mailed at once; give a wrong one the same time to show up.
    await call(t.app, 'POST', '/api/v1/auth/password', { token: user.access, body: { current_password: user.password, password: 'Changed-it1' } });
    await expect.poll(() => subjectsTo(user.email)).toEqual(['Your Home Guard password was changed']);
  });

  it('changes it all the same when the relay is down, and logs that the notice could not be sent, and whose it was', async () => {
    await t.close();
    const log = capturedLog();
    t = await startTestApp({ SMTP_URL: 'smtp://127.0.0.1:1' }, { logger: log.logger });
    const user = await verifiedUser();
    const changed = await call(t.app, 'POST', '/api/v1/auth/password', { token: user.access, body: { current_password: user.password, password: 'Changed-it1' } });
    expect(changed.status).toBe(200);
    await t.app.services.background.drain();
    expect(log.entries().filter((entry) => entry.msg === 'a security notice could not be sent')).toEqual([
      expect.objectContaining({ userId: user.id, subject: 'Your Home Guard password was changed', err: expect.objectContaining({ message: expect.stringContaining('ECONNREFUSED') }) }),
    ]);
    expect((await login(user.email, 'Changed-it1')).status).toBe(200);
  });

  it('mails no address its owner has not proved: anyone may register with someone else\'s', async () => {
    const admin = await verifiedUser({ full_name: 'Ada Admin' });
    const user = await registerAndLogin(t.app);
    expect((await call(t.app, 'POST', '/api/v1/auth/password', { token: user.access, body: { current_password: user.password, password: 'Changed-it1' } })).status).toBe(200);
    expect((await call(t.app, 'PUT', `/api/v1/admin/users/${user.id}/password`, { token: admin.access, body: { password: 'Admin-set33' } })).status).toBe(200);
    await proveEmail(t.db, user.id);
    expect((await call(t.app, 'PUT', `/api/v1/admin/users/${user.id}/password`, { token: admin.access, body: { password: 'Admin-set44' } })).status).toBe(200);
    await expect.poll(() => subjectsTo(user.email)).toEqual(['Your Home Guard password was changed by an administrator']);
  });
});

describe('the owner is mailed when their account signs in from a new device (ASVS 2.2.3)', () => {
  const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0';
  const signIn = (user: { email: string; password: string }, userAgent: string, ip = '192.0.2.10') =>
    call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password }, headers: { 'user-agent': userAgent, 'x-forwarded-for': ip } });

  it('but not for the first sign-in, one from a browser seen lately, nor a browser update', async () => {
    const user = await verifiedUser({}, { 'user-agent': FIREFOX });
    expect((await signIn(user, FIREFOX)).status).toBe(200);
    expect((await signIn(user, FIREFOX.replaceAll('131.0', '133.0'))).status).toBe(200);
    const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
    expect((await signIn(user, iphone, '198.51.100.7')).status).toBe(200);
    await expect.poll(() => subjectsTo(user.email)).toEqual(['New sign-in to your Home Guard account']);
    expect(textsTo(user.email)[0]).toMatch(/signed in to from Mobile Safari on iOS at address [\d.]+, on \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    // Once seen, the phone is known: signing in from it again says nothing more.
    expect((await signIn(user, iphone)).status).toBe(200);
    await t.app.services.background.drain(); // every mail begun has reached the sink
    expect(subjectsTo(user.email)).toHaveLength(1);
  });

  it('nor for the first sign-in of an account whose address was proved before it ever signed in', async () => {
    const person = validRegistration();
    const registered = await call(t.app, 'POST', '/api/v1/register', { body: person });
    await proveEmail(t.db, registered.body.id);
    expect((await signIn(person, FIREFOX)).status).toBe(200);
    expect((await signIn(person, 'curl/8.5')).status).toBe(200);
    await expect.poll(() => subjectsTo(person.email)).toContain('New sign-in to your Home Guard account');
    await t.app.services.background.drain();
    expect(subjectsTo(person.email), 'the second sign-in, from another device, only').toHaveLength(1);
    expect(textsTo(person.email)[0]).not.toContain('Firefox');
  });

  it('mails no address its owner has not proved: anyone may register with someone else\'s', async () => {
    const user = await registerAndLogin(t.app, {}, { 'user-agent': FIREFOX });
    const windowsChrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
    for (const agent of [windowsChrome, 'curl/8.5']) expect((await signIn(user, agent)).status).toBe(200);
    await proveEmail(t.db, user.id);
    expect((await signIn(user, iphone)).status).toBe(200);
    await expect.poll(() => subjectsTo(user.email)).toEqual(['New sign-in to your Home Guard account']);
    await t.app.services.background.drain();
    expect(subjectsTo(user.email)).toHaveLength(1);
  });

  it('says nothing of a refused sign-in', async () => {
    const user = await verifiedUser({}, { 'user-agent': FIREFOX });
    expect((await signIn({ ...user, password: 'Wrong-pass1' }, 'curl/8.5')).status).toBe(401);
    expect((await signIn(user, 'curl/8.5')).status).toBe(200);
    await expect.poll(() => subjectsTo(user.email)).toEqual(['New sign-in to your Home Guard account']);
    expect(textsTo(user.email)[0]).toContain('signed in to from an unknown browser on an unknown system');
  });
});
