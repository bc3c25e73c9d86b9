import { decodeProtectedHeader } from 'jose';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { call, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => t.close());

const jwks = async () => ((await call(t.app, 'GET', '/.well-known/jwks.json')).body.keys as Array<{ kid: string; alg: string }>).map((k) => k.kid);

it('rotation keeps old keys published until they expire, and other processes pick up the new key', async () => {
  let now = Date.now();
  // A second replica on the same database.
  const replica = await buildApp(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:8080', DATA_DIR: t.database.dataDir }), { db: t.db, clock: () => now, logger: false });
  const user = await registerAndLogin(t.app);
  const oldKid = decodeProtectedHeader(user.access).kid!;
  const before = await jwks();
  expect(before).toHaveLength(2);

  const newKid = await t.app.services.keys.rotate('ES256', 3600);
  await t.app.services.keys.rotate('RS256', 3600);
  const during = await jwks();
  expect(during).toHaveLength(4);
  expect(during).toEqual(expect.arrayContaining([...before, newKid]));
  // Tokens signed by the old key keep working, on both replicas.
  expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: user.access })).status).toBe(200);
  expect((await call(replica, 'GET', '/api/v1/auth/profile', { token: user.access })).status).toBe(200);

  const fresh = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password } });
  expect(decodeProtectedHeader(fresh.body.access).kid).toBe(newKid);
  expect((await call(replica, 'GET', '/api/v1/auth/profile', { token: fresh.body.access })).status).toBe(200);
  now += 61_000;
  const viaReplica = await call(replica, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password } });
  expect(decodeProtectedHeader(viaReplica.body.access).kid).toBe(newKid);

  t.advance(3601_000);
  const after = await jwks();
  expect(after).toHaveLength(2);
  expect(after).not.toContain(oldKid);
  await replica.close();
});
