import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { resetLinkFor } from '../e2e/support/api';
import { call, proveEmail, registerAndLogin, startTestApp, validRegistration, type TestApp } from '../support/test-app';

// The passwords guessers try first are refused wherever a password is chosen (ASVS 2.1.7), in any
// letter case, and the refusal changes nothing: no account, no password, no link used up.
let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => t.close());

const REFUSED = { error: 'This password is one of the most common, which guessers try first; choose another', field: 'password' };
const signsIn = async (email: string, password: string) => (await call(t.app, 'POST', '/api/v1/auth/login', { body: { email, password } })).status === 200;

it('refuses a common password at registration and when an administrator creates an account, and creates none', async () => {
  const admin = await registerAndLogin(t.app);
  for (const password of ['Password1', 'PASSWORD1', 'Qwerty123', 'Passw0rd']) {
    const registration = validRegistration({ password });
    const answer = await call(t.app, 'POST', '/api/v1/register', { body: registration });
    expect([answer.status, answer.body], password).toEqual([400, REFUSED]);
    const created = await call(t.app, 'POST', '/api/v1/admin/users', { token: admin.access, body: { full_name: 'Kim', email: registration.email, password, is_admin: false } });
    expect([created.status, created.body], password).toEqual([400, REFUSED]);
  }
  expect(await t.db.selectFrom('users').select('id').execute()).toHaveLength(1);
  // Uncommon ones, even built on a common word, are taken.
  expect((await call(t.app, 'POST', '/api/v1/register', { body: validRegistration({ password: 'Password1-of-kim' }) })).status).toBe(200);
});

it('refuses a common new password on Personal Info, from an administrator and by a mailed link, keeping the old one', async () => {
  const admin = await registerAndLogin(t.app);
  const user = await registerAndLogin(t.app);
  const changed = await call(t.app, 'POST', '/api/v1/auth/password', { token: user.access, body: { current_password: user.password, password: 'Welcome1' } });
  expect([changed.status, changed.body]).toEqual([400, REFUSED]);
  const set = await call(t.app, 'PUT', `/api/v1/admin/users/${user.id}/password`, { token: admin.access, body: { password: 'Abc12345' } });
  expect([set.status, set.body]).toEqual([400, REFUSED]);
  expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: user.access })).status).toBe(200); // still signed in

  await proveEmail(t.db, user.id);
  expect((await call(t.app, 'POST', '/api/v1/auth/password-reset', { body: { email: user.email } })).status).toBe(200);
  const token = new URL(await resetLinkFor(user.email, path.join(t.database.dataDir, 'outbox'))).hash.slice(1);
  const reset = await call(t.app, 'POST', '/api/v1/auth/password-reset/confirm', { body: { token, password: 'Password123' } });
  expect([reset.status, reset.body]).toEqual([400, REFUSED]);
  expect(await signsIn(user.email, user.password)).toBe(true);
  // The link was not used up: another password goes through it.
  expect((await call(t.app, 'POST', '/api/v1/auth/password-reset/confirm', { body: { token, password: 'Quiet-harbour7' } })).status).toBe(200);
  expect(await signsIn(user.email, 'Quiet-harbour7')).toBe(true);
});
