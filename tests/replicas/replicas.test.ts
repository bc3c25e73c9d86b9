import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { verifyThroughApi } from '../e2e/support/api';
import { freePort, httpJson, startServerProcess, type ServerProcess } from '../support/server-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

// Two server processes on one PostgreSQL database, driven alternately, as behind a proxy.
let database: TestDatabase;
let a: ServerProcess;
let b: ServerProcess;
let issuer: string;
let dataDir: string;
const admin = { full_name: 'Replica Admin', email: 'admin@replicas.test', password: 'Replica-pass1' };

beforeAll(async () => {
  database = await createTestDatabase();
  const [portA, portB] = [await freePort(), await freePort()];
  issuer = `http://127.0.0.1:${portA}`; // one PUBLIC_URL for every replica
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'hg-replicas-'));
  const env = { DATABASE_URL: database.databaseUrl!, DATA_DIR: dataDir, STATIC_DIR: mkdtempSync(path.join(os.tmpdir(), 'hg-web-')), PUBLIC_URL: issuer };
  // Both start at the same moment on an empty database: the migrations must run once.
  [a, b] = await Promise.all([startServerProcess({ ...env, PORT: String(portA) }), startServerProcess({ ...env, PORT: String(portB) })]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await database.drop();
});

const at = (server: ServerProcess) => ({
  post: (url: string, body: unknown, token?: string) => httpJson(`${server.url}${url}`, { method: 'POST', body, ...(token ? { token } : {}) }),
  get: (url: string, token?: string) => httpJson(`${server.url}${url}`, token ? { token } : {}),
});

it('ran each migration once, and both replicas publish the same JWKS', async () => {
  const client = new pg.Client({ connectionString: database.databaseUrl });
  await client.connect();
  const { rows } = await client.query('select name, count(*)::int as n from kysely_migration group by name');
  await client.end();
  expect(rows.length).toBeGreaterThanOrEqual(3);
  expect(rows.every((row: { n: number }) => row.n === 1)).toBe(true);
  const jwks = (await at(a).get('/.well-known/jwks.json')).body;
  expect(jwks).toEqual((await at(b).get('/.well-known/jwks.json')).body);
  // Starting together, they agreed on one signing key per algorithm instead of each making its own.
  expect(jwks.keys.map((key: { alg: string }) => key.alg).sort()).toEqual(['ES256', 'RS256']);
});

it('exchanges at B a code issued through A', async () => {
  expect((await at(a).post('/api/v1/register', admin)).status).toBe(200); // the first account: administrator
  const adminToken = (await at(b).post('/api/v1/auth/login', { email: admin.email, password: admin.password })).body.access;
  const callback = 'http://127.0.0.1:9/callback';
  const service = (await at(b).post('/api/v1/admin/api-services', { name: 'Grafana', description: 'd', redirect_uris: [callback], scopes: ['openid', 'email'], grant_types: ['authorization_code', 'refresh_token'] }, adminToken)).body;
  const person = { name: 'Rita Replica', email: 'rita@replicas.test', password: 'Rita-pass12' };
  await at(a).post('/api/v1/register', { full_name: person.name, email: person.email, password: person.password });
  await verifyThroughApi(person, b.url, path.join(dataDir, 'outbox'));
  const access = (await at(a).post('/api/v1/auth/login', { email: person.email, password: person.password })).body.access;
  const issued = await at(a).post('/api/v1/oauth/code', { client_id: service.credentials.client_id, redirect_uri: callback, response_type: 'code', scope: 'openid email' }, access);
  expect(issued.status).toBe(200);
  const form = new URLSearchParams({ grant_type: 'authorization_code', code: issued.body.code, redirect_uri: callback, client_id: service.credentials.client_id, client_secret: service.credentials.client_secret });
  const tokens = await (await fetch(`${b.url}/api/v1/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form })).json();
  expect(tokens.token_type).toBe('Bearer');
  expect((await at(a).get('/api/v1/oauth/userinfo', tokens.access_token)).body.email).toBe(person.email);
  // Replayed at A: refused, and what it issued dies everywhere.
  const replay = await fetch(`${a.url}/api/v1/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
  expect((await replay.json()).error).toBe('invalid_grant');
  expect((await at(b).get('/api/v1/oauth/userinfo', tokens.access_token)).status).toBe(401);
});

it('shares sessions, refresh reuse detection, revocation and login throttling across replicas', async () => {
  const login = (await at(a).post('/api/v1/auth/login', { email: admin.email, password: admin.password })).body;
  expect((await at(b).get('/api/v1/auth/profile', login.access)).status).toBe(200);

  // Rotated at A, the new token used at B, then the first one replayed: the whole session ends.
  const first = (await at(a).post('/api/v1/auth/refresh', {}, login.refresh)).body;
  const second = (await at(b).post('/api/v1/auth/refresh', {}, first.refresh)).body;
  expect(second.access).toBeTruthy();
  expect((await at(b).post('/api/v1/auth/refresh', {}, login.refresh)).status).toBe(401);
  expect((await at(a).get('/api/v1/auth/profile', second.access)).status).toBe(401);

  // Revoked through A, refused by B on the very next call.
  const admin2 = (await at(b).post('/api/v1/auth/login', { email: admin.email, password: admin.password })).body;
  const other = (await at(a).post('/api/v1/auth/login', { email: admin.email, password: admin.password })).body;
  const sessions = (await at(a).get('/api/v1/admin/user-sessions?page=1&size=10', admin2.access)).body.items;
  const otherSession = sessions[0].id; // newest first: `other`
  expect((await at(b).get('/api/v1/auth/profile', other.access)).status).toBe(200);
  expect((await httpJson(`${a.url}/api/v1/admin/user-sessions/revoke/${otherSession}`, { method: 'PATCH', body: {}, token: admin2.access })).status).toBe(200);
  expect((await at(b).get('/api/v1/auth/profile', other.access)).status).toBe(401);

  // Five failures spread over both replicas, and the sixth attempt is refused by either.
  for (const server of [a, b, a, b, a]) expect((await at(server).post('/api/v1/auth/login', { email: admin.email, password: 'wrong' })).status).toBe(401);
  expect((await at(b).post('/api/v1/auth/login', { email: admin.email, password: admin.password })).status).toBe(429);
});
