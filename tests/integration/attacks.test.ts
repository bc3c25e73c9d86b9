import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_AUTH_THROTTLE } from '../../server/oauth/client-throttle';
import { hashToken } from '../../server/sessions/tokens';
import { CALLBACK, oidcJson, startOidcFixture, tokenEndpoint, type OidcFixture } from '../support/oidc-fixture';
import { call, startTestApp, type TestApp } from '../support/test-app';

describe('attacks on the OIDC provider', () => {
  let f: OidcFixture;
  beforeAll(async () => {
    f = await startOidcFixture();
  });
  afterAll(async () => f.close());

  it('never redirects a logout to an unregistered post_logout_redirect_uri', async () => {
    const service = await f.createService({ post_logout_redirect_uris: ['https://app.lan/bye'] });
    for (const uri of ['https://evil.example/', `${CALLBACK}/`, 'https://app.lan/bye/', 'javascript:alert(1)']) {
      const answer = await oidcJson(f.issuer, 'POST', '/api/v1/oauth/end-session', { client_id: service.clientId, post_logout_redirect_uri: uri, state: 's' });
      expect(answer.status, uri).toBe(200);
      expect(answer.body.redirect_to, uri).toBeNull();
    }
    const registered = await oidcJson(f.issuer, 'POST', '/api/v1/oauth/end-session', { client_id: service.clientId, post_logout_redirect_uri: 'https://app.lan/bye', state: 's' });
    expect(registered.body.redirect_to).toBe('https://app.lan/bye?state=s');
    // Nor with a hint that is none of our ID tokens, though the client_id names the service.
    for (const hint of ['garbage', `${f.user.access}`]) {
      const forged = await oidcJson(f.issuer, 'POST', '/api/v1/oauth/end-session', { id_token_hint: hint, client_id: service.clientId, post_logout_redirect_uri: 'https://app.lan/bye', state: 's' });
      expect(forged.body, hint).toMatchObject({ redirect_to: null });
    }
    // Nor when the request names no service, or one that is not there.
    for (const named of [{}, { client_id: 'no-such-client' }]) {
      const answer = await oidcJson(f.issuer, 'POST', '/api/v1/oauth/end-session', { ...named, post_logout_redirect_uri: 'https://app.lan/bye', state: 's' });
      expect({ status: answer.status, body: answer.body }, JSON.stringify(named)).toEqual({ status: 200, body: { redirect_to: null, subject: null } });
    }
  });

  it('a NUL in client_secret_basic credentials is malformed, and counted as a failed authentication (PostgreSQL cannot store it)', async () => {
    // Credentials that cannot be read name no client: they count against the address alone.
    const failures = async () => (await f.t.db.selectFrom('throttle').select('failures').where('key', 'like', 'client-auth:%:client:').executeTakeFirst())?.failures ?? 0;
    const before = await failures();
    const headers = ['JTAwOng=', Buffer.from('\0:x').toString('base64'), Buffer.from('grafana:%00').toString('base64')];
    for (const url of ['/api/v1/oauth/token', '/api/v1/oauth/introspect', '/api/v1/oauth/revoke']) {
      for (const basic of headers) {
        const response = await fetch(`${f.issuer}${url}`, { method: 'POST', headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=authorization_code&code=x&token=x' });
        expect({ status: response.status, body: await response.json() }, `${url} ${basic}`).toEqual({ status: 401, body: { error: 'invalid_client', error_description: 'Malformed client credentials' } });
        expect(response.headers.get('www-authenticate')).toMatch(/^Basic /);
      }
    }
    expect(await failures()).toBe(before + 9);
  });

  it("one service's wrong secrets lock it out of the token endpoint, not another service at the same address", async () => {
    const careless = await f.createService({ name: 'Careless' });
    const other = await f.createService({ name: 'Other' });
    const refresh = (clientId: string, secret: string) =>
      fetch(`${f.issuer}/api/v1/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'gone', client_id: clientId, client_secret: secret }) });
    for (let i = 0; i < CLIENT_AUTH_THROTTLE.limit; i++) expect((await refresh(careless.clientId, 'wrong')).status).toBe(401);
    const locked = await refresh(careless.clientId, careless.clientSecret);
    expect([locked.status, await locked.json(), locked.headers.get('retry-after')]).toEqual([429, { error: 'invalid_request', error_description: 'Too many failed client authentications; try again later' }, String(CLIENT_AUTH_THROTTLE.windowSeconds)]);
    // The other service authenticates: what it is told is about its refresh token.
    expect(await (await refresh(other.clientId, other.clientSecret)).json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('keeps a client_id longer than any issued in the throttle by its hash: a long one makes no long key', async () => {
    const ids = { longestKept: 'k'.repeat(64), hashed: 'h'.repeat(65), huge: 'z'.repeat(8000) };
    for (const clientId of Object.values(ids)) {
      const answer = await fetch(`${f.issuer}/api/v1/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: 'wrong' }) });
      expect(answer.status).toBe(401);
    }
    const keptAs = async (kept: string) => (await f.t.db.selectFrom('throttle').select('failures').where('key', 'like', `client-auth:%:client:${kept}`).execute()).map(({ failures }) => failures);
    expect({ longestKept: await keptAs(ids.longestKept), hashed: await keptAs(hashToken(ids.hashed)), huge: await keptAs(hashToken(ids.huge)) }).toEqual({ longestKept: [1], hashed: [1], huge: [1] });
  });

  it("a service's token is no key to another user's or service's data", async () => {
    const mine = await f.createService({ name: 'Mine' });
    const theirs = await f.createService({ name: 'Theirs' });
    const code = (await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { client_id: mine.clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid' }, f.user.access)).body.code;
    // Another service cannot spend my code, even knowing it.
    expect((await tokenEndpoint(f.issuer, theirs, { grant_type: 'authorization_code', code, redirect_uri: CALLBACK })).error).toBe('invalid_grant');
    const tokens = await tokenEndpoint(f.issuer, mine, { grant_type: 'authorization_code', code, redirect_uri: CALLBACK });
    expect(tokens.access_token).toBeTruthy();
    // A service access token is not a first-party token.
    expect((await oidcJson(f.issuer, 'GET', '/api/v1/auth/profile', undefined, tokens.access_token)).status).toBe(401);
    expect((await oidcJson(f.issuer, 'GET', '/api/v1/admin/users', undefined, tokens.access_token)).status).toBe(401);
    // And an ID token is neither.
    expect((await oidcJson(f.issuer, 'GET', '/api/v1/auth/profile', undefined, tokens.id_token)).status).toBe(401);
  });

  it('a used refresh token sent again ends its session, whatever else the request gets wrong: a copy exists', async () => {
    const service = await f.createService({ name: 'Replayed' });
    const code = (await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { client_id: service.clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid' }, f.user.access)).body.code;
    const grant = (extra: Record<string, string>) => tokenEndpoint(f.issuer, service, extra);
    const first = await grant({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK });
    const rotated = await grant({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(rotated.access_token).toEqual(expect.any(String));
    // A scope beyond the grant would be refused on its own; the copy is what matters.
    expect(await grant({ grant_type: 'refresh_token', refresh_token: first.refresh_token, scope: 'openid profile' })).toEqual({ error: 'invalid_grant', error_description: 'The refresh token has already been used' });
    expect((await fetch(`${f.issuer}/api/v1/oauth/userinfo`, { headers: { authorization: `Bearer ${rotated.access_token}` } })).status).toBe(401);
    const reported = await f.t.db.selectFrom('audit_events').select('detail').where('kind', '=', 'token-reused').where('service_id', '=', service.id).execute();
    expect(reported).toEqual([{ detail: 'refresh-token' }]);
  });
});

describe('attacks on first-party endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(async () => t.close());

  it('answers oversized bodies with 413', async () => {
    const answer = await call(t.app, 'POST', '/api/v1/register', { body: { full_name: 'x'.repeat(200_000), email: 'a@b.co', password: 'Valid-pass1' } });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ error: 'The request body is too large' });
  });

  it('takes about as long to refuse an unknown email as a wrong password (median of 50 pairs, within 50%)', async () => {
    const emails = Array.from({ length: 50 }, (_, i) => `timing${i}@example.com`);
    for (const email of emails) await call(t.app, 'POST', '/api/v1/register', { body: { full_name: 'Timing', email, password: 'Timing-pass1' } });
    // Each attempt from its own address and for its own account, so no throttle interferes.
    const timeOf = async (email: string, i: number) => {
      const started = performance.now();
      const answer = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email, password: 'Wrong-pass1' }, headers: { 'x-forwarded-for': `10.1.${Math.floor(i / 200)}.${i % 200}` } });
      expect(answer.status).toBe(401);
      return performance.now() - started;
    };
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    // Each pair is timed back to back, so a busy moment of the machine (other test files run
    // beside this one) slows both. Skipping the hash for unknown emails would give ~0.02.
    const ratios: number[] = [];
    for (let i = 0; i < 50; i++) {
      const known = await timeOf(emails[i]!, i);
      ratios.push((await timeOf(`nobody${i}@example.com`, 100 + i)) / known);
    }
    const ratio = median(ratios);
    expect(ratio).toBeGreaterThan(1 / 1.5);
    expect(ratio).toBeLessThan(1.5);
  });
});
