import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSmtpSink } from '../support/smtp-sink';
import { call, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

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

/** The token in the newest reset mail to `email`, once it has arrived (the answer does not wait for it). */
async function tokenMailedTo(email: string, count = 1): Promise<string> {
  await expect.poll(() => mailsTo(email).length).toBe(count);
  // Quoted-printable may fold the link: undo the soft line breaks first.
  const raw = mailsTo(email).at(-1)!.raw.replace(/=\r?\n/g, '');
  return /\/auth\/reset-password#([\w-]+)/.exec(raw)![1]!;
}

describe('password reset by mail', () => {
  it('mails a link whose token sets a new password once, and signs the account out everywhere', async () => {
    const user = await registerAndLogin(t.app);
    expect((await ask(user.email.toUpperCase())).status).toBe(200);
    const token = await tokenMailedTo(user.email);
    const mail = mailsTo(user.email)[0]!.raw;
    expect(mail).toMatch(/Subject: Set a new Home Guard password/);
    expect(mail).toContain('http://127.0.0.1:8080/auth/reset-password#');

    const weak = await confirm(token, 'short');
    expect(weak.status).toBe(400);
    expect(weak.body.error).toBe('password: Password must be at least 8 characters long');
    expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: user.access })).status, 'a refused password changes nothing').toBe(200);

    expect((await confirm(token, 'Reset-and-go1')).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: user.access })).status).toBe(401);
    expect((await login(user.email, user.password)).status).toBe(401);
    expect((await login(user.email, 'Reset-and-go1')).status).toBe(200);

    const again = await confirm(token, 'Another-one22');
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('This link has expired or was already used. Ask for a new one.');
    expect((await login(user.email, 'Reset-and-go1')).status).toBe(200);
  });

  it('answers an unknown address exactly as a known one, and mails nothing', async () => {
    const user = await registerAndLogin(t.app);
    const known = await ask(user.email);
    const unknown = await ask('nobody@example.com');
    expect([unknown.status, unknown.body]).toEqual([known.status, known.body]);
    await tokenMailedTo(user.email);
    expect(smtp.mails.filter((mail) => mail.to.includes('nobody@example.com'))).toEqual([]);
  });

  it('lets only the newest link work, for 30 minutes', async () => {
    const user = await registerAndLogin(t.app);
    await ask(user.email);
    const first = await tokenMailedTo(user.email);
    await ask(user.email);
    const second = await tokenMailedTo(user.email, 2);
    expect((await confirm(first, 'Reset-and-go1')).status).toBe(400);
    t.advance(30 * 60_000);
    expect((await confirm(second, 'Reset-and-go1')).status).toBe(400);
    expect((await login(user.email, user.password)).status).toBe(200);
    expect((await confirm('x'.repeat(101), 'Reset-and-go1')).body.error).toBe('token: This link is not valid');
  });

  it('throttles requests per address asked for, whether it has an account or not', async () => {
    for (let i = 0; i < 3; i++) expect((await ask('someone@example.com')).status).toBe(200);
    const fourth = await ask('SOMEONE@example.com');
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
    expect((await ask('someone-else@example.com')).status).toBe(200);
    t.advance(15 * 60_000);
    expect((await ask('someone@example.com')).status).toBe(200);
  });

  it('clears the failed sign-ins of the account, so the new password works at once', async () => {
    const user = await registerAndLogin(t.app);
    for (let i = 0; i < 5; i++) expect((await login(user.email, `Wrong-${i}`)).status).toBe(401);
    expect((await login(user.email, user.password)).status).toBe(429);
    await ask(user.email);
    expect((await confirm(await tokenMailedTo(user.email), 'Reset-and-go1')).status).toBe(200);
    expect((await login(user.email, 'Reset-and-go1')).status).toBe(200);
  });
});
