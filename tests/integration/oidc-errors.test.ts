import { describe, expect, it } from 'vitest';
import { PROMPT_LOGIN_WINDOW_SECONDS } from '../../server/oauth/authorization';
import { CALLBACK, codeRequest, eachTestWithAService, oidcJson, TEST_VERIFIER as verifier, tokenRequest, type FixtureService, type OidcFixture } from '../support/oidc-fixture';

let f: OidcFixture;
let service: FixtureService;
eachTestWithAService((fixture, created) => ([f, service] = [fixture, created]));

const code = (params: Record<string, string> = {}, access?: string) => codeRequest(f, service, params, access);
const token = (form: Record<string, string>, auth: 'basic' | 'post' = 'basic', clientSecret = service.clientSecret, clientId = service.clientId) => tokenRequest(f.issuer, { clientId, clientSecret }, form, auth);
const exchange = async (c: string, extra: Record<string, string> = {}) => token({ grant_type: 'authorization_code', code: c, redirect_uri: CALLBACK, code_verifier: verifier, ...extra });

describe('the token endpoint refuses with the right RFC 6749 errors', () => {
  it('a reused code: invalid_grant, and the first access token stops working', async () => {
    const c = (await code()).body.code;
    const first = await exchange(c);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.headers.get('pragma')).toBe('no-cache');
    const again = await exchange(c);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'invalid_grant', error_description: 'The code has already been used' });
    expect(again.headers.get('cache-control')).toBe('no-store');
    expect(again.headers.get('pragma')).toBe('no-cache');
    const info = await fetch(`${f.issuer}/api/v1/oauth/userinfo`, { headers: { authorization: `Bearer ${first.body.access_token}` } });
    expect(info.status).toBe(401);
  });

  it('a reused code without its verifier, as a copy taken on its way would come: told it was used, and what it issued is revoked', async () => {
    const c = (await code()).body.code;
    const first = await exchange(c);
    for (const stolen of [{ code_verifier: `${verifier}x` }, { code_verifier: '' }]) {
      expect((await exchange(c, stolen)).body).toEqual({ error: 'invalid_grant', error_description: 'The code has already been used' });
    }
    const info = await fetch(`${f.issuer}/api/v1/oauth/userinfo`, { headers: { authorization: `Bearer ${first.body.access_token}` } });
    expect(info.status).toBe(401);
  });

  it("another client's code, or one never issued: invalid, and the code is not spent", async () => {
    const other = await f.createService({ name: 'Immich' });
    const c = (await code()).body.code;
    const invalid = { error: 'invalid_grant', error_description: 'The code is invalid' };
    expect((await token({ grant_type: 'authorization_code', code: c, redirect_uri: CALLBACK, code_verifier: verifier }, 'basic', other.clientSecret, other.clientId)).body).toEqual(invalid);
    expect((await exchange(`${c}x`)).body).toEqual(invalid);
    expect((await exchange(c)).status).toBe(200);
  });

  it('a code exchanged twice at once: one answer, and what it issued is revoked', async () => {
    const c = (await code()).body.code;
    const answers = await Promise.all([exchange(c), exchange(c)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const issued = answers.find((a) => a.status === 200)!;
    const info = await fetch(`${f.issuer}/api/v1/oauth/userinfo`, { headers: { authorization: `Bearer ${issued.body.access_token}` } });
    expect(info.status).toBe(401);
  });

  it('a code is good for one try: after a wrong verifier, the right one is refused too', async () => {
    const c = (await code()).body.code;
    expect((await exchange(c, { code_verifier: 'w'.repeat(50) })).body.error).toBe('invalid_grant');
    expect((await exchange(c)).body.error).toBe('invalid_grant');
  });

  it('a code whose sign-in has ended: signed out, or the account deleted', async () => {
    const signIn = (await oidcJson(f.issuer, 'POST', '/api/v1/auth/login', { email: f.user.email, password: f.user.password })).body;
    const c = (await code({}, signIn.access)).body.code;
    expect((await oidcJson(f.issuer, 'POST', '/api/v1/auth/logout', {}, signIn.refresh)).status).toBe(200);
    expect((await exchange(c)).body).toEqual({ error: 'invalid_grant', error_description: 'The sign-in behind this code has ended' });

    const live = (await code()).body.code;
    const profile = (await oidcJson(f.issuer, 'GET', '/api/v1/auth/profile', undefined, f.user.access)).body;
    expect((await oidcJson(f.issuer, 'DELETE', `/api/v1/admin/users/${profile.id}`, undefined, f.adminToken)).status).toBe(200);
    expect((await exchange(live)).body.error).toBe('invalid_grant');
  });

  it('a code 60 seconds old', async () => {
    const [c, fresh] = [(await code()).body.code, (await code()).body.code];
    f.t.advance(59_999);
    expect((await exchange(fresh)).status).toBe(200);
    f.t.advance(1);
    expect((await exchange(c)).body).toEqual({ error: 'invalid_grant', error_description: 'The code has expired' });
  });

  it('a redirect_uri other than the authorization request’s', async () => {
    const c = (await code()).body.code;
    expect((await exchange(c, { redirect_uri: `${CALLBACK}/` })).body.error).toBe('invalid_grant');
  });

  it('a wrong PKCE verifier, a missing one, and a verifier for a code without challenge', async () => {
    expect((await exchange((await code()).body.code, { code_verifier: 'w'.repeat(50) })).body.error).toBe('invalid_grant');
    const missing = (await code()).body.code;
    expect((await token({ grant_type: 'authorization_code', code: missing, redirect_uri: CALLBACK })).body.error).toBe('invalid_grant');
    const plain = (await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { client_id: service.clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid' }, f.user.access)).body.code;
    expect((await exchange(plain)).body.error).toBe('invalid_grant');
  });

  it('a parameter sent without a value is as if not sent (RFC 6749 §3.1): an empty verifier or secret spoils nothing', async () => {
    const plain = (await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { client_id: service.clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid' }, f.user.access)).body.code;
    const exchanged = await token({ grant_type: 'authorization_code', code: plain, redirect_uri: CALLBACK, code_verifier: '', client_secret: '', scope: '' });
    expect([exchanged.status, exchanged.body.error]).toEqual([200, undefined]);
  });

  it('a wrong secret: invalid_client, 401 with WWW-Authenticate for basic', async () => {
    const c = (await code()).body.code;
    const basic = await token({ grant_type: 'authorization_code', code: c, redirect_uri: CALLBACK, code_verifier: verifier }, 'basic', 'wrong-secret');
    expect(basic.status).toBe(401);
    expect(basic.body.error).toBe('invalid_client');
    expect(basic.headers.get('www-authenticate')).toMatch(/^Basic/);
    const post = await token({ grant_type: 'authorization_code', code: c, redirect_uri: CALLBACK, code_verifier: verifier }, 'post', 'wrong-secret');
    expect(post.status).toBe(401);
    expect(post.body.error).toBe('invalid_client');
    // The code was not spent by the failed attempts.
    expect((await exchange(c)).status).toBe(200);
  });

  it('a disabled service: invalid_client, and its tokens get 401 at userinfo', async () => {
    const issued = await exchange((await code()).body.code);
    await oidcJson(f.issuer, 'PATCH', `/api/v1/admin/api-services/toggle/${service.id}`, {}, f.adminToken);
    expect((await exchange((await code()).body.code)).body.error).toBe('invalid_client');
    const info = await fetch(`${f.issuer}/api/v1/oauth/userinfo`, { headers: { authorization: `Bearer ${issued.body.access_token}` } });
    expect(info.status).toBe(401);
  });

  it('a refresh token of another client, or an access token; a replayed refresh token revokes its session', async () => {
    const other = await f.createService({ name: 'Immich' });
    const issued = await exchange((await code()).body.code);
    const invalid = { error: 'invalid_grant', error_description: 'The refresh token is invalid' };
    const stolen = await token({ grant_type: 'refresh_token', refresh_token: issued.body.refresh_token }, 'basic', other.clientSecret, other.clientId);
    expect(stolen.body).toEqual(invalid);
    // An access token would otherwise be spent for a new refresh token: a short-lived leak made long.
    expect((await token({ grant_type: 'refresh_token', refresh_token: issued.body.access_token })).body).toEqual(invalid);
    expect((await fetch(`${f.issuer}/api/v1/oauth/userinfo`, { headers: { authorization: `Bearer ${issued.body.access_token}` } })).status).toBe(200);
    const rotated = await token({ grant_type: 'refresh_token', refresh_token: issued.body.refresh_token });
    expect(rotated.status).toBe(200);
    expect((await token({ grant_type: 'refresh_token', refresh_token: issued.body.refresh_token })).body.error).toBe('invalid_grant');
    expect((await token({ grant_type: 'refresh_token', refresh_token: rotated.body.refresh_token })).body.error).toBe('invalid_grant');
  });

  it('a JSON, text or multipart body, or none, is refused at the token, introspection and revocation endpoints: they take forms', async () => {
    const basic = `Basic ${Buffer.from(`${service.clientId}:${service.clientSecret}`).toString('base64')}`;
    const c = (await code()).body.code;
    for (const url of ['/api/v1/oauth/token', '/api/v1/oauth/introspect', '/api/v1/oauth/revoke']) {
      const json = JSON.stringify({ grant_type: 'authorization_code', code: c, redirect_uri: CALLBACK, code_verifier: verifier, token: c });
      const multipart = new FormData();
      multipart.set('grant_type', 'authorization_code');
      const bodies = [{ headers: { 'content-type': 'application/json', authorization: basic }, body: json }, { headers: { 'content-type': 'text/plain', authorization: basic }, body: 'grant_type=authorization_code' }, { headers: { 'content-type': 'text/plain; was=application/x-www-form-urlencoded', authorization: basic }, body: 'grant_type=authorization_code' }, { headers: { authorization: basic }, body: multipart }, { headers: { authorization: basic } }];
      for (const init of bodies as RequestInit[]) {
        const response = await fetch(`${f.issuer}${url}`, { method: 'POST', ...init });
        expect({ status: response.status, body: await response.json() }, url).toEqual({ status: 400, body: { error: 'invalid_request', error_description: 'Send the parameters as application/x-www-form-urlencoded' } });
      }
    }
    // The code was not spent.
    expect((await exchange(c)).status).toBe(200);
  });

  it('grant types: unknown, and one the service may not use', async () => {
    expect((await token({ grant_type: 'password', username: 'x', password: 'y' })).body.error).toBe('unsupported_grant_type');
    const codeOnly = await f.createService({ name: 'Gitea', grant_types: [] });
    const answer = await token({ grant_type: 'refresh_token', refresh_token: 'x' }, 'basic', codeOnly.clientSecret, codeOnly.clientId);
    expect(answer.body.error).toBe('unauthorized_client');
  });
});

describe('the authorization request', () => {
  it('a scope the service does not allow is refused (never narrowed), back to the service', async () => {
    const narrow = await f.createService({ name: 'Narrow', scopes: ['openid'] });
    const answer = await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { client_id: narrow.clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid email profile', state: 'xyz' }, f.user.access);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'invalid_scope', error_description: 'Scope not allowed for this service: email profile' });
    const back = new URL(answer.body.redirect_to);
    expect(back.origin + back.pathname).toBe(CALLBACK);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: 'invalid_scope', state: 'xyz', iss: f.issuer });
  });

  it('a service that may not use the authorization_code grant is told so, back at the service, and gets no code', async () => {
    const refreshOnly = await f.createService({ name: 'Refresh only', grant_types: ['refresh_token'] });
    const answer = await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { client_id: refreshOnly.clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', state: 'xyz' }, f.user.access);
    expect(answer.status).toBe(400);
    expect(Object.fromEntries(new URL(answer.body.redirect_to).searchParams)).toMatchObject({ error: 'unauthorized_client', error_description: 'This service may not use the authorization_code grant', state: 'xyz', iss: f.issuer });
    expect(await f.t.db.selectFrom('oauth_codes').select('code_hash').where('service_id', '=', refreshOnly.id).execute()).toEqual([]);
  });

  it('an unknown client or an unregistered redirect_uri is never redirected to', async () => {
    for (const params of [
      { client_id: 'nope', redirect_uri: CALLBACK },
      { client_id: service.clientId, redirect_uri: 'https://evil.example/callback' },
      { client_id: service.clientId, redirect_uri: `${CALLBACK}/` },
    ]) {
      const check = await fetch(`${f.issuer}/api/v1/oauth/authorize?${new URLSearchParams({ ...params, response_type: 'code', scope: 'openid' })}`);
      const body = await check.json();
      expect(check.status).toBeGreaterThanOrEqual(400);
      expect(body.redirect_to).toBeUndefined();
    }
  });

  it('missing response_type and a plain PKCE method go back as errors; prompt=none needs an earlier approval', async () => {
    const base = { client_id: service.clientId, redirect_uri: CALLBACK, scope: 'openid', state: 's' };
    const noType = await fetch(`${f.issuer}/api/v1/oauth/authorize?${new URLSearchParams(base)}`);
    expect(new URL((await noType.json()).redirect_to).searchParams.get('error')).toBe('invalid_request');
    const plain = await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { ...base, response_type: 'code', code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, f.user.access);
    expect(plain.body.error).toBe('invalid_request');
    const silent = await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { ...base, response_type: 'code', prompt: 'none' }, f.user.access);
    expect(Object.fromEntries(new URL(silent.body.redirect_to).searchParams)).toMatchObject({ error: 'consent_required', error_description: 'The user has not approved this service yet' });
    expect((await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { ...base, response_type: 'code' }, f.user.access)).status).toBe(200);
    expect((await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { ...base, response_type: 'code', prompt: 'none' }, f.user.access)).status).toBe(200);
  });

  it('empty parameters count as not sent; a response_mode other than query is refused, back to the service', async () => {
    const base = { client_id: service.clientId, response_type: 'code', scope: 'openid', state: 's' };
    // redirect_uri= with one URI registered: that one, as when it is left out.
    const empty = await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { ...base, redirect_uri: '', id_token_hint: '', prompt: '', max_age: '', code_challenge_method: '' }, f.user.access);
    expect(empty.status).toBe(200);
    expect(new URL(empty.body.redirect_to).origin + new URL(empty.body.redirect_to).pathname).toBe(CALLBACK);
    const checked = await fetch(`${f.issuer}/api/v1/oauth/authorize?${new URLSearchParams({ ...base, redirect_uri: '', nonce: '', login_hint: '' })}`);
    expect(checked.status).toBe(200);
    expect((await checked.json()).redirect_uri).toBe(CALLBACK);

    for (const mode of ['form_post', 'fragment']) {
      const refused = await fetch(`${f.issuer}/api/v1/oauth/authorize?${new URLSearchParams({ ...base, redirect_uri: CALLBACK, response_mode: mode })}`);
      const back = new URL((await refused.json()).redirect_to);
      expect(Object.fromEntries(back.searchParams), mode).toMatchObject({ error: 'invalid_request', error_description: 'Only response_mode=query is supported', state: 's' });
    }
    const query = await fetch(`${f.issuer}/api/v1/oauth/authorize?${new URLSearchParams({ ...base, redirect_uri: CALLBACK, response_mode: 'query' })}`);
    expect(query.status).toBe(200);
  });

  it('a form POST to /auth becomes the same request', async () => {
    const response = await fetch(`${f.issuer}/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: service.clientId, scope: 'openid', response_type: 'code', redirect_uri: CALLBACK }),
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/auth?client_id=${service.clientId}&redirect_uri=${encodeURIComponent(CALLBACK)}&response_type=code&scope=openid`);
  });
});

describe('sign-in freshness', () => {
  it('max_age: an older sign-in must sign in again (told to the service only with prompt=none)', async () => {
    f.t.advance(120_000);
    const stale = await code({ max_age: '60' });
    expect(stale.status).toBe(400);
    expect(stale.body).toMatchObject({ error: 'login_required', error_description: 'The sign-in is older than max_age allows' });
    expect(stale.body.redirect_to).toBeUndefined();
    const silent = await code({ max_age: '60', prompt: 'none' });
    expect(new URL(silent.body.redirect_to).searchParams.get('error')).toBe('login_required');
    expect((await code({ max_age: '600' })).status).toBe(200);
    expect((await code({ max_age: '120' })).status, 'exactly max_age old is not older').toBe(200);
  });

  it('prompt=login: a code only for a sign-in of the last ten minutes, whatever account the browser picks', async () => {
    expect((await code({ prompt: 'login' })).status).toBe(200);
    f.t.advance(PROMPT_LOGIN_WINDOW_SECONDS * 1000);
    expect((await code({ prompt: 'login' })).status).toBe(200);
    f.t.advance(1);
    const stale = await code({ prompt: 'login' });
    expect(stale.status).toBe(400);
    expect(stale.body).toMatchObject({ error: 'login_required', error_description: 'The service asks for a fresh sign-in' });
    expect(stale.body.redirect_to).toBeUndefined();
    expect((await code()).status).toBe(200);
    const fresh = await oidcJson(f.issuer, 'POST', '/api/v1/auth/login', { email: f.user.email, password: f.user.password });
    expect((await code({ prompt: 'login' }, fresh.body.access)).status).toBe(200);
  });
});
