import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { codeIn, startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { call, proveEmail, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

// A reset link or a verification code speaks for the address it was mailed to, as things were
// then: once the password or the address changes, whoever holds one must not use it.

let smtp: SmtpSink;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpSink();
});
afterAll(async () => smtp.close());
beforeEach(async () => {
  t = await startTestApp({ SMTP_URL: smtp.url });
});
afterEach(async () => t.close());

const USED_LINK = 'This link has expired or was already used. Ask for a new one.';
const mailsTo = (email: string) => smtp.textsTo(email);
const subjectsTo = (email: string) => smtp.subjectsTo(email);
const confirmReset = (token: string, password: string) => call(t.app, 'POST', '/api/v1/auth/password-reset/confirm', { body: { token, password } });
const login = (email: string, password: string) => call(t.app, 'POST', '/api/v1/auth/login', { body: { email, password } });

/** Asks for a reset link for `email`, and answers its token once the mail is in. */
async function resetToken(email: string): Promise<string> {
  const links = () => mailsTo(email).filter((raw) => raw.includes('Subject: Set a new Home Guard password'));
  const before = links().length;
  expect((await call(t.app, 'POST', '/api/v1/auth/password-reset', { body: { email } })).status).toBe(200);
  await expect.poll(() => links().length).toBe(before + 1);
  return /\/auth\/reset-password#([\w-]+)/.exec(links().at(-1)!)![1]!;
}

describe('a password change voids the reset links mailed before it', () => {
  it('made by the owner, or by an administrator', async () => {
    const admin = await registerAndLogin(t.app);
    const user = await registerAndLogin(t.app);

    const mailedBefore = await resetToken(user.email);
    expect((await call(t.app, 'POST', '/api/v1/auth/password', { token: user.access, body: { current_password: user.password, password: 'Changed-it1' } })).status).toBe(200);
    expect((await confirmReset(mailedBefore, 'Attacker-set1')).body.error).toBe(USED_LINK);

    const mailedAgain = await resetToken(user.email);
    expect((await call(t.app, 'PUT', `/api/v1/admin/users/${user.id}/password`, { token: admin.access, body: { password: 'Admin-set33' } })).status).toBe(200);
    expect((await confirmReset(mailedAgain, 'Attacker-set1')).body.error).toBe(USED_LINK);
    expect((await login(user.email, 'Admin-set33')).status, 'the password stays the one set').toBe(200);

    // A link asked for after the change works as ever.
    expect((await confirmReset(await resetToken(user.email), 'Reset-after4')).status).toBe(200);
  });
});

describe('an administrator changing the email address', () => {
  it('voids the code and the link mailed to the old one, and tells the old one where mail goes now', async () => {
    const admin = await registerAndLogin(t.app);
    const user = await registerAndLogin(t.app, { full_name: 'Sam Moved' });
    expect((await call(t.app, 'POST', '/api/v1/auth/email', { token: user.access, body: {} })).status).toBe(200);
    const oldCode = codeIn(mailsTo(user.email).at(-1)!);
    const oldLink = await resetToken(user.email);
    await proveEmail(t.db, user.id); // as if by another code: only a proved address is told of changes

    const moved = `moved.${user.email}`;
    const person = (await call(t.app, 'GET', `/api/v1/admin/users/${user.id}`, { token: admin.access })).body;
    const edit = { full_name: person.full_name, email: moved, phone_number: null, is_admin: false };
    expect((await call(t.app, 'PUT', `/api/v1/admin/users/${user.id}`, { token: admin.access, body: edit })).status).toBe(200);

    const verified = await call(t.app, 'POST', '/api/v1/auth/email/otp', { token: user.access, body: { otp: oldCode } });
    expect(verified.status, 'a code mailed to the old address does not verify the new one').toBe(400);
    expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: user.access })).body.email_verified).toBe(false);
    expect((await confirmReset(oldLink, 'Attacker-set1')).body.error).toBe(USED_LINK);
    expect((await login(moved, user.password)).status).toBe(200);

    await expect.poll(() => subjectsTo(user.email)).toContain('Your Home Guard email address was changed');
    const notice = mailsTo(user.email).find((raw) => raw.includes('Subject: Your Home Guard email address was changed'))!;
    expect(notice).toContain(`changed the email address of your Home Guard account to ${moved}`);
    expect(subjectsTo(moved)).toEqual([]);

    // An edit that keeps the address mails nothing and voids nothing.
    const kept = await resetToken(moved);
    expect((await call(t.app, 'PUT', `/api/v1/admin/users/${user.id}`, { token: admin.access, body: { ...edit, full_name: 'Sam Stayed' } })).status).toBe(200);
    expect((await confirmReset(kept, 'Reset-kept5')).status).toBe(200);
    expect(subjectsTo(user.email).filter((subject) => subject === 'Your Home Guard email address was changed')).toHaveLength(1);

    // The new address is not proved yet: moving the account on tells it nothing.
    expect((await call(t.app, 'PUT', `/api/v1/admin/users/${user.id}`, { token: admin.access, body: { ...edit, email: `again.${user.email}` } })).status).toBe(200);
    await t.app.services.background.drain(); // every mail begun has reached the sink
    expect(subjectsTo(moved)).not.toContain('Your Home Guard email address was changed');

    // Proved, an address that an edit keeps is told nothing either.
    await proveEmail(t.db, user.id);
    expect((await call(t.app, 'PUT', `/api/v1/admin/users/${user.id}`, { token: admin.access, body: { ...edit, email: `again.${user.email}`, full_name: 'Sam Again' } })).status).toBe(200);
    await t.app.services.background.drain();
    expect(subjectsTo(`again.${user.email}`)).toEqual([]);
  });
});
