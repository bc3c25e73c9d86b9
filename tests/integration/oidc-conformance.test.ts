import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { introspectionSchema, tokenResponseSchema, userClaimsSchema } from '../../contract/oidc-endpoints';
import { PROMPT_LOGIN_WINDOW_SECONDS } from '../../server/oauth/authorization';
import { CALLBACK, codeRequest, eachTestWithAService, oidcJson, TEST_VERIFIER as verifier, tokenRequest, type FixtureService, type OidcFixture } from '../support/oidc-fixture';

// Deviations from the specifications a relying party may rely on, each pinned by its section.

let f: OidcFixture;
let service: FixtureService;
eachTestWithAService((fixture, created) => ([f, service] = [fixture, created]));

const code = (params: Record<string, string | boolean | undefined> = {}, access?: string) => codeRequest(f, service, params, access);
const token = (form: Record<string, string>) => tokenRequest(f.issuer, service, form);
const exchange = (c: string, extra: Record<string, string> = {}) => token({ grant_type: 'authorization_code', code: c, code_verifier: verifier, ...extra });
const userinfo = async (access: string) => (await fetch(`${f.issuer}/api/v1/oauth/userinfo`, { headers: { authorization: `Bearer ${access}` } })).json();
const idTokenClaims = (idToken: string) => JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

describe('the token request repeats the redirect_uri (RFC 6749 §4.1.3, OIDC Core §3.1.3.2)', () => {
  it('named in the authorization request: a token request without it is refused', async () => {
    const answer = await exchange((await code()).body.code);
    expect([answer.status, answer.body]).toEqual([400, { error: 'invalid_grant', error_description: 'redirect_uri is missing: the authorization request named one' }]);
    expect((await exchange((await code()).body.code, { redirect_uri: CALLBACK })).status).toBe(200);
  });

  it('left out (one is registered): the token request may leave it out, or send that one', async () => {
    expect((await exchange((await code({ redirect_uri: undefined })).body.code)).status).toBe(200);
    expect((await exchange((await code({ redirect_uri: undefined })).body.code, { redirect_uri: CALLBACK })).status).toBe(200);
    expect((await exchange((await code({ redirect_uri: undefined })).body.code, { redirect_uri: `${CALLBACK}/` })).body.error).toBe('invalid_grant');
  });
});

describe("the consent screen's call with the spec's minimum, {nonce, client_id}", () => {
  it("is a code request of scope openid, the spec's defaults, sent back to the one registered redirect_uri", async () => {
    const answer = await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { client_id: service.clientId, nonce: 'n-1' }, f.user.access);
    expect(answer.status).toBe(200);
    expect(new URL(answer.body.redirect_to).origin + new URL(answer.body.redirect_to).pathname).toBe(CALLBACK);
    const issued = await token({ grant_type: 'authorization_code', code: answer.body.code });
    expect(issued.body.scope).toBe('openid');
    expect(idTokenClaims(issued.body.id_token).nonce).toBe('n-1');
  });
});

describe('offline_access without the refresh_token grant', () => {
  it('gets no refresh token, and the tokens do not claim the scope (RFC 6749 §5.1, OIDC Core §11)', async () => {
    service = await f.createService({ name: 'No refresh', grant_types: ['authorization_code'] });
    const issued = await exchange((await code({ scope: 'openid email offline_access' })).body.code, { redirect_uri: CALLBACK });
    expect(issued.status).toBe(200);
    expect(issued.body.refresh_token).toBeUndefined();
    expect(issued.body.scope).toBe('openid email');
    const introspected = await fetch(`${f.issuer}/api/v1/oauth/introspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${service.clientId}:${service.clientSecret}`).toString('base64')}` },
      body: new URLSearchParams({ token: issued.body.access_token }),
    });
    expect(await introspected.json()).toMatchObject({ active: true, scope: 'openid email' });
  });
});

describe('a refresh with a narrower scope (RFC 6749 §6)', () => {
  it('narrows the access and ID tokens only: the new refresh token keeps the whole grant', async () => {
    const issued = await exchange((await code({ scope: 'openid email profile' })).body.code, { redirect_uri: CALLBACK });
    expect(issued.body.scope).toBe('openid email profile');
    const narrowed = await token({ grant_type: 'refresh_token', refresh_token: issued.body.refresh_token, scope: 'openid' });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.scope).toBe('openid');
    expect(Object.keys(await userinfo(narrowed.body.access_token))).toEqual(['sub']);
    expect(idTokenClaims(narrowed.body.id_token).email).toBeUndefined();

    const again = await token({ grant_type: 'refresh_token', refresh_token: narrowed.body.refresh_token });
    expect(again.status).toBe(200);
    expect(again.body.scope).toBe('openid email profile');
    expect(await userinfo(again.body.access_token)).toMatchObject({ email: f.user.email, name: f.user.name });
    expect(idTokenClaims(again.body.id_token).email).toBe(f.user.email);
    // And a later narrowing may pick another part of the grant.
    expect((await token({ grant_type: 'refresh_token', refresh_token: again.body.refresh_token, scope: 'openid email' })).body.scope).toBe('openid email');
  });
});

describe('max_age=0 is prompt=login (OIDC Core §3.1.2.1)', () => {
  it('a sign-in of the last ten minutes gets a code; an older one must sign in again', async () => {
    f.t.advance(1_000);
    const fresh = await oidcJson(f.issuer, 'POST', '/api/v1/auth/login', { email: f.user.email, password: f.user.password });
    // The person typed the password and read the consent screen.
    f.t.advance(30_000);
    expect((await code({ max_age: '0' }, fresh.body.access)).status).toBe(200);

    f.t.advance(PROMPT_LOGIN_WINDOW_SECONDS * 1000);
    const stale = await code({ max_age: '0' }, fresh.body.access);
    expect(stale.status).toBe(400);
    expect(stale.body).toMatchObject({ error: 'login_required' });
    expect(stale.body.redirect_to).toBeUndefined();
  });

  it('with prompt=none, which cannot ask for a sign-in, the service is told login_required', async () => {
    expect((await code()).status).toBe(200); // approved before
    f.t.advance(1_000);
    const silent = await code({ max_age: '0', prompt: 'none' });
    expect(Object.fromEntries(new URL(silent.body.redirect_to).searchParams)).toMatchObject({ error: 'login_required', state: 'st', iss: f.issuer });
  });
});

describe('the code request answers a bad bearer token as RFC 6750 §3.1 says', () => {
  it('401 invalid_token with its challenge, so the web app refreshes and tries again', async () => {
    const ask = (access: string | undefined) => oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { client_id: service.clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid' }, access);
    const fresh = (await oidcJson(f.issuer, 'POST', '/api/v1/auth/login', { email: f.user.email, password: f.user.password })).body;
    expect((await ask(fresh.access)).status).toBe(200);
    expect((await oidcJson(f.issuer, 'POST', '/api/v1/auth/logout', {}, fresh.refresh)).status).toBe(200);
    for (const [access, challenge] of [[undefined, 'Bearer'], ['not-a-token', 'Bearer error="invalid_token"'], [fresh.access, 'Bearer error="invalid_token"']] as const) {
      const refused = await ask(access);
      expect({ status: refused.status, error: refused.body.error, challenge: refused.headers.get('www-authenticate') }, String(access)).toEqual({ status: 401, error: 'invalid_token', challenge });
      expect(refused.body.error_description).toEqual(expect.any(String));
      expect(refused.headers.get('cache-control')).toBe('no-store');
    }
  });
});

describe('request objects are refused, not ignored (OIDC Core §6.1, §6.2)', () => {
  const authorize = async (params: Record<string, string>) => {
    const query = new URLSearchParams({ client_id: service.clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', state: 'xyz', ...params });
    const response = await fetch(`${f.issuer}/api/v1/oauth/authorize?${query}`);
    return { status: response.status, body: await response.json() };
  };

  it('request and request_uri go back to the service with their errors, state and iss', async () => {
    for (const [param, error] of [['request', 'request_not_supported'], ['request_uri', 'request_uri_not_supported']] as const) {
      const checked = await authorize({ [param]: 'eyJhbGciOiJub25lIn0.e30.' });
      expect(checked.status).toBe(400);
      expect(Object.fromEntries(new URL(checked.body.redirect_to).searchParams)).toMatchObject({ error, state: 'xyz', iss: f.issuer });
      const asked = await code({ [param]: 'https://rp.example/request.jwt', state: 'xyz' });
      expect(new URL(asked.body.redirect_to).searchParams.get('error')).toBe(error);
    }
  });

  it('an unknown client is still shown, never redirected to; a form POST to /auth keeps the parameter', async () => {
    const unknown = await fetch(`${f.issuer}/api/v1/oauth/authorize?${new URLSearchParams({ client_id: 'nope', redirect_uri: CALLBACK, request: 'x' })}`);
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect((await unknown.json()).redirect_to).toBeUndefined();
    const posted = await fetch(`${f.issuer}/auth`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: service.clientId, request_uri: 'urn:x' }) });
    expect(posted.headers.get('location')).toBe(`/auth?client_id=${service.clientId}&request_uri=urn%3Ax`);
  });
});

describe('prompt=none shows nothing (OIDC Core §3.1.2.1, §3.1.2.6)', () => {
  const errorOf = (answer: { body: { redirect_to?: string } }) => Object.fromEntries(new URL(answer.body.redirect_to!).searchParams);

  it('an account still to be verified is interaction_required, back at the service', async () => {
    await oidcJson(f.issuer, 'POST', '/api/v1/register', { full_name: 'New Person', email: 'new@oidc.test', password: 'New-pass1' });
    const fresh = (await oidcJson(f.issuer, 'POST', '/api/v1/auth/login', { email: 'new@oidc.test', password: 'New-pass1' })).body.access as string;
    expect(errorOf(await code({ prompt: 'none' }, fresh))).toMatchObject({ error: 'interaction_required', error_description: 'The account must finish its verification first', state: 'st', iss: f.issuer });
    // Asked with a screen, the person is told to verify first, and the service is not.
    expect(await code({}, fresh)).toEqual(expect.objectContaining({ status: 403, body: { error: 'access_denied', error_description: 'Verify your account before signing in to services' } }));
  });

  it('an id_token_hint naming someone else is login_required; naming the one signed in goes on', async () => {
    const config = await f.relyingParty(service);
    const olivia = (await f.signInToService(config, { scope: 'openid email' })).tokens.id_token!;
    const admin = (await f.signInToService(config, { scope: 'openid email', token: f.adminToken })).tokens.id_token!;
    expect((await code({ prompt: 'none', id_token_hint: olivia })).status).toBe(200);
    expect(errorOf(await code({ prompt: 'none', id_token_hint: admin }))).toMatchObject({ error: 'login_required', error_description: 'The person the id_token_hint names is not the one signed in', state: 'st' });
    expect(errorOf(await code({ prompt: 'none', id_token_hint: 'not.a.token' }))).toMatchObject({ error: 'login_required' });
    // With a screen, the person signed in may go on: the consent screen shows who it is, and
    // that the service asked for another, however often they approved it before.
    expect((await code({ id_token_hint: admin })).status).toBe(200);
    expect((await code({ id_token_hint: olivia, if_approved: true })).status).toBe(200);
    for (const hint of [admin, 'not.a.token']) expect((await code({ id_token_hint: hint, if_approved: true })).status).toBe(204);
  });
});

describe('a repeated authorization parameter is refused (RFC 6749 §3.1, §4.1.2.1)', () => {
  const authorize = async (query: string) => {
    const response = await fetch(`${f.issuer}/api/v1/oauth/authorize?${query}`);
    return { status: response.status, body: await response.json() };
  };
  const base = () => `client_id=${service.clientId}&redirect_uri=${encodeURIComponent(CALLBACK)}&response_type=code&state=st`;

  it('goes back to the service as invalid_request, naming the parameter', async () => {
    expect((await authorize(`${base()}&scope=openid`)).status).toBe(200);
    // Sent again without a value, it is as if not sent again.
    expect((await authorize(`${base()}&scope=openid&scope=&nonce=&nonce=`)).body).toMatchObject({ scopes: ['openid'] });
    const twice = await authorize(`${base()}&scope=openid&scope=openid%20email`);
    expect(twice.status).toBe(400);
    expect(Object.fromEntries(new URL(twice.body.redirect_to).searchParams)).toMatchObject({ error: 'invalid_request', error_description: 'The scope parameter is repeated', state: 'st', iss: f.issuer });
  });

  it('a repeated client_id or redirect_uri is shown, never redirected to', async () => {
    for (const query of [`${base()}&scope=openid&client_id=${service.clientId}`, `${base()}&scope=openid&redirect_uri=https%3A%2F%2Fevil.example%2F`]) {
      const answer = await authorize(query);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('invalid_request');
      expect(answer.body.redirect_to).toBeUndefined();
    }
  });
});

describe('parameters the server does not know are ignored (RFC 6749 §3.1, §3.2)', () => {
  it('whatever their name, toString and __proto__ included', async () => {
    const issued = (await code()).body.code;
    expect(await exchange(issued, { redirect_uri: CALLBACK, toString: '1', constructor: 'x', ['__proto__']: 'y', hasOwnProperty: 'z' })).toMatchObject({ status: 200, body: { token_type: 'Bearer' } });
  });
});

describe('an access token sent two ways is refused (RFC 6750 §2)', () => {
  const post = async (fields: Record<string, string>, authorization?: string) => {
    const response = await fetch(`${f.issuer}/api/v1/oauth/userinfo`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization ? { authorization } : {}) }, body: new URLSearchParams(fields) });
    return { status: response.status, body: await response.json() };
  };

  it('in the header and the body; a header of another scheme is no second token', async () => {
    const access = (await exchange((await code()).body.code, { redirect_uri: CALLBACK })).body.access_token as string;
    expect(await post({ access_token: access }, `Bearer ${access}`)).toEqual({ status: 400, body: { error: 'invalid_request', error_description: 'Send the access token once, not twice' } });
    expect(await post({ access_token: access }, 'Basic eDp5')).toMatchObject({ status: 200, body: { email: f.user.email } });
    // Only the scheme is looked at: "bearer" further on, here a Digest username, is no Bearer header.
    expect(await post({ access_token: access }, 'Digest username="bearer x"')).toMatchObject({ status: 200, body: { email: f.user.email } });
    expect(await post({ access_token: access })).toMatchObject({ status: 200, body: { email: f.user.email } });
  });

  it('in the address it is never taken, and the caller is told where to send it', async () => {
    const access = (await exchange((await code()).body.code, { redirect_uri: CALLBACK })).body.access_token as string;
    for (const init of [{}, { headers: { authorization: `Bearer ${access}` } }] as RequestInit[]) {
      const response = await fetch(`${f.issuer}/api/v1/oauth/userinfo?access_token=${access}`, init);
      expect({ status: response.status, body: await response.json() }).toEqual({ status: 400, body: { error: 'invalid_request', error_description: 'Send the access token in the Authorization header (Bearer), not in the address' } });
    }
  });
});

describe('a repeated token request parameter is refused (RFC 6749 §3.2)', () => {
  it('answers invalid_request naming it, and the code is still good', async () => {
    const issued = (await code()).body.code;
    const body = `grant_type=authorization_code&code=${issued}&code_verifier=${verifier}&redirect_uri=${encodeURIComponent(CALLBACK)}&code=other`;
    const response = await fetch(`${f.issuer}/api/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${service.clientId}:${service.clientSecret}`).toString('base64')}` },
      body,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_request', error_description: 'The code parameter is repeated' });
    expect((await exchange(issued, { redirect_uri: CALLBACK })).status).toBe(200);
  });
});

describe('a long state (oauth2-proxy keeps the page to return to in it)', () => {
  it('goes back to the service as sent, up to 8000 characters', async () => {
    const state = `nonce:https://grafana.home.lan/explore?left=${'x'.repeat(7000)}`;
    const config = await f.relyingParty(service);
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: 'openid', state, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
    // The consent screen gets it too: a person who refuses is sent back with it.
    expect((await oidcJson(f.issuer, 'GET', `/api/v1/oauth/authorize${url.search}`)).body.state).toBe(state);
    const callback = await f.allow(url);
    expect(callback.searchParams.get('state')).toBe(state);
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.access_token).toBeTruthy();
  });
});

describe('the answers are the contract\'s shapes (contract/oauth.ts)', () => {
  it('token, userinfo and introspection answers hold exactly their schemas\' fields, and userinfo the ID token\'s claims about the person', async () => {
    service = await f.createService({ name: 'Everything', scopes: ['openid', 'email', 'profile', 'groups', 'offline_access'] });
    const issued = await exchange((await code({ scope: 'openid email profile groups offline_access' })).body.code, { redirect_uri: CALLBACK });
    expect(tokenResponseSchema.strict().safeParse(issued.body).error).toBeUndefined();
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: issued.body.refresh_token });
    expect(tokenResponseSchema.strict().safeParse(refreshed.body).error).toBeUndefined();

    const claims = await userinfo(refreshed.body.access_token);
    expect(userClaimsSchema.strict().safeParse(claims).error).toBeUndefined();
    const { sub, email, email_verified, name, preferred_username, picture, groups } = idTokenClaims(refreshed.body.id_token);
    expect(claims).toEqual(JSON.parse(JSON.stringify({ sub, email, email_verified, name, preferred_username, picture, groups })));
    expect(Object.keys(claims).sort()).toEqual(['email', 'email_verified', 'groups', 'name', 'picture', 'preferred_username', 'sub']);

    const introspect = async (tokenToAsk: string) =>
      (await fetch(`${f.issuer}/api/v1/oauth/introspect`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${service.clientId}:${service.clientSecret}`).toString('base64')}` },
        body: new URLSearchParams({ token: tokenToAsk }),
      })).json();
    for (const answer of [await introspect(refreshed.body.access_token), await introspect(refreshed.body.refresh_token), await introspect('not-a-token')]) {
      expect(introspectionSchema.strict().safeParse(answer).error).toBeUndefined();
    }
  });
});
