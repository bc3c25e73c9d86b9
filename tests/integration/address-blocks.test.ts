import { afterEach, beforeEach, expect, it } from 'vitest';
import { REGISTER_THROTTLE } from '../../server/accounts/accounts-service';
import { LOGIN_THROTTLE } from '../../server/accounts/sign-in';
import { RESET_THROTTLE } from '../../server/accounts/password-resets';
import { call, startTestApp, validRegistration, type TestApp } from '../support/test-app';

// Whoever holds one IPv6 address holds its whole /64: every per-address throttle counts the /64.
let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => t.close());

const inBlock = (i: number) => `2001:db8:5:6::${(i + 1).toString(16)}`;
const SAME_BLOCK_OTHERWISE_WRITTEN = '2001:0DB8:0005:0006:ffff:ffff:ffff:ffff';
const NEXT_BLOCK = '2001:db8:5:7::1';

it('counts failed sign-ins from every address of one /64 together, however the address is written', async () => {
  const fail = (remoteAddress: string, i = 0) => call(t.app, 'POST', '/api/v1/auth/login', { body: { email: `ghost${i % 10}@example.com`, password: 'Wrong-pass1' }, remoteAddress });
  for (let i = 0; i < LOGIN_THROTTLE.address.limit; i++) expect((await fail(inBlock(i), i)).status).toBe(401);
  const sameBlock = await fail(SAME_BLOCK_OTHERWISE_WRITTEN);
  expect(sameBlock.status).toBe(429);
  expect(sameBlock.body.error).toBe('Too many failed attempts; try again in a minute');
  expect((await fail(NEXT_BLOCK)).status).toBe(401);
});

it('counts taken emails at registration from every address of one /64 together', async () => {
  const register = (remoteAddress: string) => call(t.app, 'POST', '/api/v1/register', { body: validRegistration({ email: 'taken@example.com' }), remoteAddress });
  expect((await register('192.0.2.1')).status).toBe(200);
  for (let i = 0; i < REGISTER_THROTTLE.limit; i++) expect((await register(inBlock(i))).status).toBe(409);
  expect((await register(SAME_BLOCK_OTHERWISE_WRITTEN)).status).toBe(429);
  expect((await register(NEXT_BLOCK)).status).toBe(409);
});

it('counts password reset requests from every address of one /64 together', async () => {
  const ask = (remoteAddress: string, i = 0) => call(t.app, 'POST', '/api/v1/auth/password-reset', { body: { email: `someone${i}@example.com` }, remoteAddress });
  for (let i = 0; i < RESET_THROTTLE.address.limit; i++) expect((await ask(inBlock(i), i)).status).toBe(200);
  expect((await ask(SAME_BLOCK_OTHERWISE_WRITTEN)).status).toBe(429);
  expect((await ask(NEXT_BLOCK)).status).toBe(200);
});
