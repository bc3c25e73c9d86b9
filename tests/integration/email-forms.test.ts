import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => t.close());

// 'josé' as one letter é, and as e followed by a combining acute accent: the same address.
const composed = 'jos\u00e9@example.com';
const decomposed = 'jose\u0301@example.com';

it('an address typed with a combining accent is the same address: one account, and either form signs in', async () => {
  const first = await registerAndLogin(t.app, { email: decomposed });
  const twin = await call(t.app, 'POST', '/api/v1/register', { body: { full_name: 'Twin', email: composed, password: 'Secret-123' } });
  expect(twin.status).toBe(409);
  for (const email of [composed, decomposed, 'JOSE\u0301@EXAMPLE.COM']) {
    const login = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email, password: first.password } });
    expect(login.status, JSON.stringify(email)).toBe(200);
    expect(login.body.email).toBe(composed);
  }
});
