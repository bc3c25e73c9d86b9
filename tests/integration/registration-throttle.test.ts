import { afterEach, beforeEach, expect, it } from 'vitest';
import { REGISTER_THROTTLE } from '../../server/accounts/accounts-service';
import { call, startTestApp, validRegistration, type TestApp } from '../support/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => t.close());

const register = (remoteAddress: string, overrides: Record<string, unknown> = {}) => call(t.app, 'POST', '/api/v1/register', { body: validRegistration(overrides), remoteAddress });
const TAKEN = { email: 'taken@example.com' };

it('refuses registrations for a while from an address that keeps trying emails already registered', async () => {
  expect((await register('192.0.2.1', TAKEN)).status).toBe(200);
  for (let i = 0; i < REGISTER_THROTTLE.limit; i++) expect((await register('198.51.100.7', TAKEN)).status).toBe(409);
  const next = await register('198.51.100.7', { email: 'TAKEN@example.com' });
  expect(next.status).toBe(429);
  expect(next.body).toEqual({ error: 'Too many failed attempts; try again in 10 minutes' });
  expect(Number(next.headers['retry-after'])).toBeGreaterThan(0);
  // A free email too: otherwise 429 against 200 would still tell which emails are taken.
  expect((await register('198.51.100.7')).status).toBe(429);

  // Another address is not affected, and the window passes.
  expect((await register('198.51.100.8', TAKEN)).status).toBe(409);
  expect((await register('198.51.100.8')).status).toBe(200);
  t.advance(REGISTER_THROTTLE.windowSeconds * 1000);
  expect((await register('198.51.100.7')).status).toBe(200);
});

it('never counts registrations that succeed, one after another or all at once, and they do not wipe out taken emails', async () => {
  const from = '198.51.100.9';
  for (let i = 0; i < REGISTER_THROTTLE.limit + 5; i++) expect((await register(from)).status).toBe(200);
  const together = await Promise.all(Array.from({ length: 15 }, () => register(from)));
  expect(together.map((answer) => answer.status)).toEqual(Array(15).fill(200));
  expect((await register('192.0.2.1', TAKEN)).status).toBe(200);
  // The taken emails after them are the first on record, and a success between them forgives none.
  for (let i = 0; i < REGISTER_THROTTLE.limit - 1; i++) expect((await register(from, TAKEN)).status).toBe(409);
  expect((await register(from)).status).toBe(200);
  expect((await register(from, TAKEN)).status).toBe(409);
  expect((await register(from, TAKEN)).status).toBe(429);
});

it('counts only the answers that an email is taken: registrations refused for a common password are not held against the address', async () => {
  const from = '198.51.100.10';
  for (let i = 0; i < REGISTER_THROTTLE.limit + 2; i++) {
    const weak = await register(from, { password: 'Password1' });
    expect([weak.status, weak.body.field]).toEqual([400, 'password']);
  }
  expect((await register(from)).status).toBe(200);
  expect((await register('192.0.2.1', TAKEN)).status).toBe(200);
  for (let i = 0; i < REGISTER_THROTTLE.limit; i++) expect((await register(from, TAKEN)).status).toBe(409);
  expect((await register(from)).status).toBe(429);
});
