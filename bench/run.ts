// npm run bench: our server (SQLite, or PostgreSQL with --postgres) and the peer, oidc-provider,
// measured with the same autocannon settings, alternating; prints a table and writes
// bench/results.json. Speed lives here, never in the tests.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { verifyThroughApi } from '../tests/e2e/support/api';
import { freePort, startServerProcess } from '../tests/support/server-process';
import { createTestDatabase } from '../tests/support/test-database';
import { basic, form, scenario, tokenPool, type Row } from './load';
import { PEER_CLIENT, startPeer } from './peer';

const postgres = process.argv.includes('--postgres');
if (postgres) process.env.TEST_DATABASE = 'postgres';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
// --only a,b runs just those scenarios; --profile writes the server's CPU profile to bench/profiles.
const onlyArg = process.argv.indexOf('--only');
const only = onlyArg > 0 ? new Set(process.argv[onlyArg + 1]!.split(',')) : undefined;
const wanted = (name: string) => !only || only.has(name);
const profileDir = process.argv.includes('--profile') ? path.join(import.meta.dirname, 'profiles') : undefined;
const callback = 'http://127.0.0.1:9/callback';
// oidc-provider's in-memory adapter keeps 1,000 entries (LRU): a code and its grant are two.
const CODES = 400;

async function json(base: string, method: string, url: string, body?: unknown, token?: string) {
  const response = await fetch(`${base}${url}`, { method, headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  return response.json() as Promise<Record<string, any>>;
}

const database = await createTestDatabase();
const dataDir = database.dataDir;
const ours = await startServerProcess({ DATA_DIR: dataDir, STATIC_DIR: mkdtempSync(path.join(os.tmpdir(), 'hg-web-')), LOG_LEVEL: 'error', ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}) }, undefined, profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []);
const peer = await startPeer(await freePort());
const rss = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${ours.child.pid}/status`, 'utf8'))![1]) / 1024);
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, rss())), 200);

// Seed through the public API: an administrator, a verified user, a service.
const admin = { name: 'Bench Admin', email: 'admin@bench.test', password: 'Bench-admin1' };
const user = { name: 'Bench User', email: 'user@bench.test', password: 'Bench-user12' };
for (const person of [admin, user]) {
  await json(ours.url, 'POST', '/api/v1/register', { full_name: person.name, email: person.email, password: person.password });
  await verifyThroughApi(person, ours.url, path.join(dataDir, 'outbox'));
}
const adminToken = (await json(ours.url, 'POST', '/api/v1/auth/login', { email: admin.email, password: admin.password })).access;
const service = (await json(ours.url, 'POST', '/api/v1/admin/api-services', { name: 'Bench', description: 'b', redirect_uris: [callback], scopes: ['openid', 'email', 'profile', 'offline_access'], grant_types: ['authorization_code', 'refresh_token'] }, adminToken)).credentials;
const logins = await Promise.all(Array.from({ length: CONNECTIONS }, () => json(ours.url, 'POST', '/api/v1/auth/login', { email: user.email, password: user.password })));
const userToken = logins[0]!.access as string;
const idleRss = rss();

const ourCode = () => json(ours.url, 'POST', '/api/v1/oauth/code', { client_id: service.client_id, redirect_uri: callback, response_type: 'code', scope: 'openid email profile offline_access' }, userToken).then((r) => r.code as string);
const exchange = (base: string, tokenPath: string, id: string, secret: string, code: string) =>
  fetch(`${base}${tokenPath}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(id, secret) }, body: form({ grant_type: 'authorization_code', code, redirect_uri: id === PEER_CLIENT.client_id ? PEER_CLIENT.redirect_uri : callback }) }).then((r) => r.json() as Promise<Record<string, string>>);

const sides = {
  ours: { base: ours.url, token: '/api/v1/oauth/token', userinfo: '/api/v1/oauth/userinfo', jwks: '/.well-known/jwks.json', id: service.client_id as string, secret: service.client_secret as string, mint: ourCode },
  peer: { base: peer.issuer, token: '/token', userinfo: '/me', jwks: '/jwks', id: PEER_CLIENT.client_id, secret: PEER_CLIENT.client_secret, mint: peer.mintCode },
};

type Side = (typeof sides)['ours'];
const oidcScenarios: Array<[string, (side: Side) => Promise<Row>]> = [
  ['discovery', (s) => scenario('discovery', s.base, () => ({ path: '/.well-known/openid-configuration' }))],
  ['jwks', (s) => scenario('jwks', s.base, () => ({ path: s.jwks }))],
  ['userinfo', async (s) => {
    const tokens = await exchange(s.base, s.token, s.id, s.secret, await s.mint());
    return scenario('userinfo', s.base, () => ({ path: s.userinfo, headers: { authorization: `Bearer ${tokens.access_token}` } }));
  }],
  ['refresh_token grant', async (s) => {
    const chains = await Promise.all(Array.from({ length: CONNECTIONS }, async () => (await exchange(s.base, s.token, s.id, s.secret, await s.mint())).refresh_token!));
    const pool = tokenPool(chains, (body) => body.refresh_token!);
    return scenario('refresh_token grant', s.base, () => {
      const token = pool.take();
      return token ? { method: 'POST', path: s.token, headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(s.id, s.secret) }, body: form({ grant_type: 'refresh_token', refresh_token: token }) } : null;
    }, pool.give);
  }],
  ['code exchange', async (s) => {
    const codes: string[] = [];
    for (let i = 0; i < CODES; i++) codes.push(await s.mint());
    return scenario('code exchange', s.base, () => {
      const code = codes.shift();
      return code ? { method: 'POST', path: s.token, headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(s.id, s.secret) }, body: form({ grant_type: 'authorization_code', code, redirect_uri: s.id === PEER_CLIENT.client_id ? PEER_CLIENT.redirect_uri : callback }) } : null;
    }, undefined, CODES);
  }],
];

const table: Array<{ scenario: string; ours: Row; peer?: Row }> = [];
for (const [name, run] of oidcScenarios.filter(([name]) => wanted(name))) {
  // Alternate, so machine noise hits both.
  const oursRow = await run(sides.ours);
  const peerRow = await run(sides.peer);
  table.push({ scenario: name, ours: oursRow, peer: peerRow });
}

const refreshPool = tokenPool(logins.map((l) => l.refresh as string), (body) => body.refresh!);
if (wanted('first-party refresh')) table.push({ scenario: 'first-party refresh', ours: await scenario('first-party refresh', ours.url, () => {
  const token = refreshPool.take();
  return token ? { method: 'POST', path: '/api/v1/auth/refresh', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{}' } : null;
}, refreshPool.give) });
if (wanted('profile GET')) table.push({ scenario: 'profile GET', ours: await scenario('profile GET', ours.url, () => ({ path: '/api/v1/auth/profile', headers: { authorization: `Bearer ${userToken}` } })) });
if (wanted('password login')) table.push({ scenario: 'password login', ours: await scenario('password login', ours.url, () => ({ method: 'POST', path: '/api/v1/auth/login', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email, password: user.password }) })) });

clearInterval(sampler);
const cell = (row?: Row) => (row ? `${String(row.rps).padStart(7)} ${String(row.p50).padStart(4)} ${String(row.p99).padStart(5)} ${String(row.non2xx).padStart(6)}` : '      -    -     -      -');
console.log(`\nHome Guard benchmark — ${postgres ? 'PostgreSQL' : 'SQLite'}, ${os.cpus().length} cores (${os.cpus()[0]?.model}), ${CONNECTIONS} connections\n`);
console.log(`${'scenario'.padEnd(22)} ${'ours req/s  p50   p99 non2xx'.padEnd(28)} | ${'peer req/s  p50   p99 non2xx'.padEnd(28)} | ratio`);
for (const { scenario: name, ours: o, peer: p } of table) {
  console.log(`${name.padEnd(22)} ${cell(o)}   | ${cell(p)}   | ${p ? (o.rps / p.rps).toFixed(2) : '-'}`);
}
console.log(`\nserver RSS: ${idleRss} MB idle, ${peakRss} MB peak`);
writeFileSync(path.join(import.meta.dirname, 'results.json'), `${JSON.stringify({ date: new Date().toISOString(), database: postgres ? 'postgres' : 'sqlite', cores: os.cpus().length, cpu: os.cpus()[0]?.model, connections: CONNECTIONS, rss: { idle: idleRss, peak: peakRss }, table }, null, 2)}\n`);

await ours.stop();
await peer.close();
await database.drop();
