import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, proveEmail, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => t.close());

type Case = { name: string; method: 'GET' | 'POST'; url: string; payload?: string; contentType?: string; auth?: 'access' | 'refresh' };

const big = 'x'.repeat(1024 * 1024);
const json = (value: unknown) => JSON.stringify(value);
const register = (payload: string, contentType = 'application/json'): Case => ({ name: `register ${payload.slice(0, 40)}`, method: 'POST', url: '/api/v1/register', payload, contentType });
const login = (payload: string, contentType = 'application/json'): Case => ({ name: `login ${payload.slice(0, 40)}`, method: 'POST', url: '/api/v1/auth/login', payload, contentType });

const cases: Case[] = [
  register(''),
  register('{}'),
  register('{"email":"a@b.co"}'),
  register(json({ full_name: 'A', email: 'a@b.co' })),
  register(json({ full_name: 42, email: 'a@b.co', password: 'Passw0rdX' })),
  register(json({ full_name: 'A', email: ['a@b.co'], password: 'Passw0rdX' })),
  register(json({ full_name: 'A', email: 'a@b.co', password: 12345678 })),
  register(json({ full_name: 'A', email: 'a@b.co', password: 'Passw0rdX', phone_number: { x: 1 } })),
  register(json({ full_name: big, email: 'a@b.co', password: 'Passw0rdX' })),
  register(json({ full_name: 'A', email: `${'a'.repeat(300)}@b.co`, password: 'Passw0rdX' })),
  register(json({ full_name: 'A', email: 'a@b.co', password: `A1${'a'.repeat(5000)}` })),
  register('{"full_name":"A",'),
  register('not json at all'),
  register('null'),
  register('[1,2,3]'),
  register('"a string"'),
  register(json({ full_name: 'A', email: 'a@b.co', password: 'Passw0rdX' }), 'text/plain'),
  register('full_name=A&email=a%40b.co&password=Passw0rdX', 'application/x-www-form-urlencoded'),
  register('{"__proto__":{"is_admin":true},"full_name":"A","email":"a@b.co"}'),
  login(''),
  login('{}'),
  login(json({ email: 'a@b.co' })),
  login(json({ email: 1, password: 'x' })),
  login(json({ email: 'a@b.co', password: big })),
  login('{"email":'),
  login(json({ email: 'a@b.co', password: 'x' }), 'text/plain'),
  { name: 'refresh with a string body', method: 'POST', url: '/api/v1/auth/refresh', payload: '"x"', contentType: 'application/json', auth: 'refresh' },
  { name: 'refresh with invalid JSON', method: 'POST', url: '/api/v1/auth/refresh', payload: '{{', contentType: 'application/json', auth: 'refresh' },
  { name: 'refresh with a huge body', method: 'POST', url: '/api/v1/auth/refresh', payload: json({ x: big }), contentType: 'application/json', auth: 'refresh' },
  { name: 'profile with a body of the wrong type', method: 'GET', url: '/api/v1/auth/profile', payload: '{{', contentType: 'application/json', auth: 'access' },
  { name: 'profile with a malformed bearer', method: 'GET', url: '/api/v1/auth/profile', contentType: 'application/json' },
];

it(`answers each of ${cases.length} malformed requests with a 4xx JSON error and writes nothing`, async () => {
  expect(cases.length).toBeGreaterThanOrEqual(30);
  const user = await registerAndLogin(t.app);
  const snapshot = async () => ({
    users: await t.db.selectFrom('users').selectAll().execute(),
    sessions: await t.db.selectFrom('user_sessions').selectAll().execute(),
    tokens: await t.db.selectFrom('refresh_tokens').selectAll().execute(),
  });
  const before = await snapshot();
  for (const c of cases) {
    const headers: Record<string, string> = {};
    if (c.contentType) headers['content-type'] = c.contentType;
    if (c.auth) headers.authorization = `Bearer ${c.auth === 'access' ? user.access : user.refresh}`;
    if (c.name.includes('malformed bearer')) headers.authorization = 'Bearer not a token';
    const response = await t.app.inject({ method: c.method, url: c.url, headers, ...(c.payload !== undefined ? { payload: c.payload } : {}) });
    // A GET with a body is still answered on its merits (the profile), never with a 5xx.
    if (c.method === 'GET' && c.auth === 'access') {
      expect(response.statusCode, c.name).toBeLessThan(500);
      continue;
    }
    expect(response.statusCode, c.name).toBeGreaterThanOrEqual(400);
    expect(response.statusCode, c.name).toBeLessThan(500);
    expect(response.headers['content-type'], c.name).toMatch(/^application\/json/);
    const body = response.json();
    expect(typeof body.error, c.name).toBe('string');
    expect(response.body, c.name).not.toMatch(/at .*\.ts:\d+|stack/i);
  }
  expect(await snapshot()).toEqual(before);
});

it('refuses a compressed body with 415, saying to send it as it is', async () => {
  for (const encoding of ['gzip', 'br', 'deflate, gzip']) {
    const answer = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', headers: { 'content-type': 'application/json', 'content-encoding': encoding }, payload: gzipSync('{"email":"a@b.co","password":"x"}') });
    expect({ status: answer.statusCode, body: answer.json(), accept: answer.headers['accept-encoding'] }, encoding).toEqual({ status: 415, body: { error: 'The request body must not be compressed: send it without Content-Encoding' }, accept: 'identity' });
  }
  const plain = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', headers: { 'content-type': 'application/json', 'content-encoding': 'identity' }, payload: '{"email":"a@b.co","password":"x"}' });
  expect(plain.statusCode).toBe(401);
  // With no body there is nothing compressed: the header is ignored.
  const user = await registerAndLogin(t.app);
  const profile = await t.app.inject({ url: '/api/v1/auth/profile', headers: { authorization: `Bearer ${user.access}`, 'content-encoding': 'gzip' } });
  expect(profile.statusCode).toBe(200);
});

it('tells a key that could reach the prototype from broken JSON', async () => {
  for (const payload of ['{"__proto__":{"is_admin":true},"full_name":"A"}', '{"full_name":"A","x":{"constructor":{"prototype":{"is_admin":true}}}}']) {
    const answer = await t.app.inject({ method: 'POST', url: '/api/v1/register', headers: { 'content-type': 'application/json' }, payload });
    expect({ status: answer.statusCode, body: answer.json() }, payload).toEqual({ status: 400, body: { error: 'The request body may not have a "__proto__" key, nor "constructor" holding "prototype"' } });
  }
  // A key named constructor is just a key: the sign-in is judged on its merits.
  const plain = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"email":"a@b.co","password":"x","constructor":1}' });
  expect({ status: plain.statusCode, body: plain.json() }).toEqual({ status: 401, body: { error: 'Invalid email or password' } });
  const broken = await t.app.inject({ method: 'POST', url: '/api/v1/register', headers: { 'content-type': 'application/json' }, payload: '{"full_name":' });
  expect(broken.json()).toEqual({ error: 'The request body is not valid JSON' });
});

it('refuses text that is no UTF-8, or a \\u escape of half a character, and stores nothing of it', async () => {
  const register = (payload: string | Buffer) => t.app.inject({ method: 'POST', url: '/api/v1/register', headers: { 'content-type': 'application/json' }, payload });
  const registration = (email: string, fullName = 'Ada') => `{"full_name":"${fullName}","email":"${email}","password":"Passw0rd-long"}`;
  const notUtf8 = { error: 'The request body is not UTF-8 text: some of its bytes are no character' };
  const halfCharacter = { error: 'The request body has a \\u escape of half a character (a surrogate without its pair), which no field accepts' };
  const bytes = (text: string, invalid: number[]) => Buffer.concat([Buffer.from(text), Buffer.from(invalid), Buffer.from('"}')]);
  const cases: Array<[string | Buffer, object]> = [
    [bytes('{"full_name":"', [0xff, 0xfe]), notUtf8],
    // A surrogate written in UTF-8's form (CESU-8), which UTF-8 forbids.
    [bytes('{"email":"sur', [0xed, 0xa0, 0x80]), notUtf8],
    [registration('sur\\ud800@example.com'), halfCharacter],
    [registration('sur\\udc00@example.com'), halfCharacter],
    [registration('a@example.com', '\\ude00\\ud83d'), halfCharacter],
    ['{"\\ud800":1}', halfCharacter],
    // Nested as deep as 64 KB allows: found all the same, not a stack overflow's 500.
    [`${'['.repeat(30_000)}"\\ud800"${']'.repeat(30_000)}`, halfCharacter],
  ];
  for (const [payload, expected] of cases) {
    const answer = await register(payload);
    expect({ status: answer.statusCode, body: answer.json() }, String(payload)).toEqual({ status: 400, body: expected });
  }
  expect(await t.db.selectFrom('users').select('email').execute()).toEqual([]);
  // A pair escaped, as Python's json.dumps sends an emoji, is a whole character: taken.
  const paired = await register(registration('ada@example.com', 'Ada \\ud83d\\ude00'));
  expect(paired.statusCode).toBe(200);
  expect(await t.db.selectFrom('users').select('full_name').execute()).toEqual([{ full_name: 'Ada \u{1F600}' }]);
  // Beside a null, which the search for half characters walks past: answered, not a 500.
  const withNull = await register('{"full_name":"Bo \\ud83d\\ude00","email":"bo@example.com","password":"Passw0rd-long","phone":null}');
  expect({ status: withNull.statusCode, body: withNull.json() }).toEqual({ status: 400, body: { error: 'Unknown field "phone": this request does not take it' } });
});

it('says what is wrong with a body that is no JSON object, or no JSON, in its own words', async () => {
  const notObject = { status: 400, body: { error: 'The request body must be a JSON object' } };
  const notJson = { status: 415, body: { error: 'The request body must be JSON (Content-Type: application/json)' } };
  const cases: Array<[Case, typeof notObject]> = [
    [register('[1,2,3]'), notObject],
    [register('"a string"'), notObject],
    [register('null'), notObject],
    [login(''), notObject],
    // Only white space is no body either, not broken JSON.
    [login(' \r\n\t '), notObject],
    [register(json({ full_name: 'A', email: 'a@b.co', password: 'Passw0rdX' }), 'text/plain'), notJson],
    [login(json({ email: 'a@b.co', password: 'x' }), 'text/plain; charset=utf-8'), notJson],
    [login('<login/>', 'application/xml'), notJson],
  ];
  for (const [c, expected] of cases) {
    const response = await t.app.inject({ method: c.method, url: c.url, headers: { 'content-type': c.contentType! }, payload: c.payload });
    expect({ name: c.name, status: response.statusCode, body: response.json() }).toEqual({ name: c.name, ...expected });
  }
  const token = await t.app.inject({ method: 'POST', url: '/api/v1/oauth/token', headers: { 'content-type': 'text/plain' }, payload: 'grant_type=authorization_code' });
  expect([token.statusCode, token.json().error], 'the token endpoint, in its own (OAuth) words').toEqual([400, 'invalid_request']);
});

it("refuses a field the admin's writes and registration do not take: it was dropped with a 200, as if saved", async () => {
  const admin = await registerAndLogin(t.app);
  const user = await registerAndLogin(t.app);
  const asAdmin = async (method: 'POST' | 'PUT' | 'DELETE', url: string, body: unknown) => {
    const answer = await call(t.app, method, url, { token: admin.access, body });
    return [answer.status, answer.body.error];
  };
  const edit = { full_name: 'Ada', email: user.email, is_admin: false };
  expect(await asAdmin('PUT', `/api/v1/admin/users/${user.id}`, { ...edit, disabled: true })).toEqual([400, 'Unknown field "disabled": this request does not take it']);
  expect(await asAdmin('PUT', `/api/v1/admin/users/${user.id}/status`, { disabled: true, notify: false })).toEqual([400, 'Unknown field "notify": this request does not take it']);
  expect(await asAdmin('PUT', `/api/v1/admin/users/${user.id}/password`, { password: 'Brand-new1', sign_out: false })).toEqual([400, 'Unknown field "sign_out": this request does not take it']);
  expect(await asAdmin('DELETE', `/api/v1/admin/users/${user.id}`, { keep_sessions: true })).toEqual([400, 'Unknown field "keep_sessions": this request does not take it']);
  const registered = await call(t.app, 'POST', '/api/v1/register', { body: { full_name: 'Cy', email: 'cy@example.com', password: 'Passw0rd-long', is_admin: true } });
  expect([registered.status, registered.body.error]).toEqual([400, 'Unknown field "is_admin": this request does not take it']);
  expect((await t.db.selectFrom('users').select(['id', 'disabled_at']).execute()).map((row) => [row.id, row.disabled_at])).toEqual(expect.arrayContaining([[user.id, null]]));
  expect(await t.db.selectFrom('users').select('id').where('email', '=', 'cy@example.com').execute()).toEqual([]);
  // Nor a password changed, nor an account deleted.
  expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password } })).status).toBe(200);
  expect(await asAdmin('POST', '/api/v1/admin/users', { full_name: 'Bo', email: 'bo@example.com', password: 'Passw0rd-long', role: 'admin' })).toEqual([400, 'Unknown field "role": this request does not take it']);
  const service = { name: 'Grafana', description: 'Dashboards', redirect_uris: ['https://grafana.home.lan/cb'], scopes: ['openid'] };
  expect(await asAdmin('POST', '/api/v1/admin/api-services', { ...service, client_secret: 'mine' })).toEqual([400, 'Unknown field "client_secret": this request does not take it']);
  expect(await t.db.selectFrom('api_services').select('id').execute()).toEqual([]);
  expect((await t.db.selectFrom('users').select('disabled_at').where('id', '=', user.id).executeTakeFirstOrThrow()).disabled_at).toBeNull();
});

it("words the rules a field states without a message of its own plainly, not in the parser's words", async () => {
  const admin = await registerAndLogin(t.app);
  const ask = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) => {
    const answer = await t.app.inject({ method, url, headers: { authorization: `Bearer ${admin.access}`, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}) });
    // The OAuth endpoints answer in OAuth's shape: the words are the error_description.
    return [answer.statusCode, answer.json().error_description ?? answer.json().error];
  };
  expect(await ask('POST', '/api/v1/oauth/end-session', { state: 5 })).toEqual([400, 'state: must be a string']);
  expect(await ask('POST', '/api/v1/oauth/end-session', { id_token_hint: ['a'] })).toEqual([400, 'id_token_hint: must be a string']);
  expect(await ask('POST', '/api/v1/oauth/end-session', { state: 'x'.repeat(8001) })).toEqual([400, 'state: must be at most 8000 characters']);
  // The authorization request, asked for by the consent screen or posted by a service, and a posted sign-out.
  expect(await ask('GET', `/api/v1/oauth/authorize?nonce=${'n'.repeat(501)}`)).toEqual([400, 'nonce: must be at most 500 characters']);
  expect(await ask('POST', '/auth', { nonce: 'n'.repeat(501) })).toEqual([400, 'nonce: must be at most 500 characters']);
  expect(await ask('POST', '/signout', { state: 'x'.repeat(8001) })).toEqual([400, 'state: must be at most 8000 characters']);
  for (const list of ['users', 'api-services', 'user-sessions', 'service-sessions', 'audit-log']) {
    expect(await ask('GET', `/api/v1/admin/${list}?search=${'a'.repeat(201)}`), list).toEqual([400, 'search: must be at most 200 characters']);
  }
  expect(await ask('DELETE', '/api/v1/auth/sessions', { everywhere: true })).toEqual([400, 'Unknown field "everywhere": this request does not take it']);
  const many = Object.fromEntries(['a', 'b', 'c', 'd', 'e'.repeat(100)].map((key) => [key, 1]));
  expect(await ask('DELETE', '/api/v1/auth/sessions', many)).toEqual([400, 'Unknown fields "a", "b", "c" and 2 more: this request does not take them']);
  expect(await ask('DELETE', '/api/v1/auth/sessions', [1])).toEqual([400, 'This request takes no body, or an empty JSON object']);
  expect(await ask('POST', '/api/v1/oauth/code', { request: [] })).toEqual([400, 'request: must be a string']);
  expect(await ask('POST', '/api/v1/oauth/code', 'text')).toEqual([400, 'The request body must be a JSON object']);
  // A field's own message still wins.
  expect(await ask('POST', '/api/v1/admin/users', { email: 5 })).toEqual([400, expect.not.stringMatching(/must be a string|Invalid input/)]);
});

it('refuses a body on each request that takes none, before it does anything: setup, sign-outs, deletions, new credentials', async () => {
  const admin = await registerAndLogin(t.app);
  const user = await registerAndLogin(t.app);
  await proveEmail(t.db, user.id); // so that a setup taken would be stored
  const service = await call(t.app, 'POST', '/api/v1/admin/api-services', { token: admin.access, body: { name: 'Grafana', description: 'Dashboards', redirect_uris: ['https://grafana.home.lan/cb'], scopes: ['openid'] } });
  const session = await t.db.selectFrom('user_sessions').select('id').where('user_id', '=', user.id).executeTakeFirstOrThrow();
  const tables = ['users', 'user_sessions', 'refresh_tokens', 'api_services', 'service_sessions', 'authenticator_app_setups', 'email_otps', 'audit_events'] as const;
  const snapshot = async () => JSON.stringify(await Promise.all(tables.map((table) => t.db.selectFrom(table).selectAll().execute())));
  const before = await snapshot();
  const noBody: Array<['POST' | 'PATCH' | 'DELETE', string, string?]> = [
    ['POST', '/api/v1/auth/email', user.access],
    ['POST', '/api/v1/auth/verify', user.access],
    ['POST', '/api/v1/auth/two-step/setup', user.access],
    ['DELETE', '/api/v1/auth/sessions', user.access],
    ['DELETE', `/api/v1/auth/sessions/${session.id}`, user.access],
    ['DELETE', '/api/v1/auth/services/not-a-service', user.access],
    ['POST', '/api/v1/auth/refresh', user.refresh],
    ['POST', '/api/v1/auth/logout', user.refresh],
    ['POST', `/api/v1/admin/users/${user.id}/sign-out`, admin.access],
    ['DELETE', `/api/v1/admin/users/${user.id}/two-step`, admin.access],
    ['DELETE', `/api/v1/admin/users/${user.id}`, admin.access],
    ['PATCH', `/api/v1/admin/user-sessions/revoke/${session.id}`, admin.access],
    ['PATCH', '/api/v1/admin/service-sessions/revoke/not-a-session', admin.access],
    ['POST', `/api/v1/admin/api-services/${service.body.id}/credentials`, admin.access],
    ['DELETE', `/api/v1/admin/api-services/${service.body.id}`, admin.access],
  ];
  for (const [method, url, token] of noBody) {
    const answer = await call(t.app, method, url, { token, body: { confirm: true } });
    expect([answer.status, answer.body.error], `${method} ${url}`).toEqual([400, 'Unknown field "confirm": this request does not take it']);
  }
  expect(await snapshot()).toBe(before);
  // What a client without a payload may send with a JSON content type: nothing, or white space.
  for (const [blank, device] of [['', user], ['\n', await registerAndLogin(t.app)]] as const) {
    const signOut = await call(t.app, 'POST', '/api/v1/auth/logout', { token: device.refresh, rawBody: blank, headers: { 'content-type': 'application/json' } });
    expect(signOut.status, JSON.stringify(blank)).toBe(200);
  }
});
