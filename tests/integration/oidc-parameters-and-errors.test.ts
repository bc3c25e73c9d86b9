import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { CALLBACK, eachTestWithAService, oidcJson, type FixtureService, type OidcFixture } from '../support/oidc-fixture';

// How the OAuth endpoints read what services send, and word what they answer, each pinned by its section.

let f: OidcFixture;
let service: FixtureService;
eachTestWithAService((fixture, created) => ([f, service] = [fixture, created]));

const verifier = 'v'.repeat(43) + 'erifier-for-tests';
const basic = () => `Basic ${Buffer.from(`${service.clientId}:${service.clientSecret}`).toString('base64')}`;

async function code(params: Record<string, string | undefined> = {}) {
  const request = { client_id: service.clientId, redirect_uri: CALLBACK, scope: 'openid email', state: 'st', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', ...params };
  return oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', request, f.user.access);
}

/** A form POST of `body` (sent as written, so a name may repeat) to `path`. */
async function postForm(path: string, body: string, authorization?: string) {
  const response = await fetch(`${f.issuer}${path}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization ? { authorization } : {}) }, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('a parameter the endpoint does not know is ignored, however often it comes (RFC 6749 §3.1, §3.2)', () => {
  it('at the token endpoint: two resource indicators (RFC 8707) leave the exchange and the refresh as they were', async () => {
    const issued = (await code()).body.code as string;
    const exchanged = await postForm('/api/v1/oauth/token', `${form({ grant_type: 'authorization_code', code: issued, code_verifier: verifier, redirect_uri: CALLBACK })}&resource=https%3A%2F%2Fa.example&resource=https%3A%2F%2Fb.example`, basic());
    expect(exchanged).toMatchObject({ status: 200, body: { token_type: 'Bearer' } });
    const refreshed = await postForm('/api/v1/oauth/token', `${form({ grant_type: 'refresh_token', refresh_token: exchanged.body!.refresh_token as string })}&x=1&x=2`, basic());
    expect(refreshed).toMatchObject({ status: 200, body: { token_type: 'Bearer' } });
    const userinfo = await postForm('/api/v1/oauth/userinfo', `${form({ access_token: refreshed.body!.access_token as string })}&x=1&x=2`);
    expect(userinfo).toMatchObject({ status: 200, body: { email: f.user.email } });
  });

  it('one it knows, repeated, is still refused, naming it', async () => {
    const issued = (await code()).body.code as string;
    const twice = await postForm('/api/v1/oauth/token', `${form({ grant_type: 'authorization_code', code: issued, code_verifier: verifier, redirect_uri: CALLBACK })}&code_verifier=other&x=1&x=2`, basic());
    expect(twice).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: 'The code_verifier parameter is repeated' } });
    for (const path of ['/api/v1/oauth/revoke', '/api/v1/oauth/introspect']) {
      expect(await postForm(path, 'token=a&token=b', basic()), path).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: 'The token parameter is repeated' } });
    }
    const both = await postForm('/api/v1/oauth/token', `${form({ grant_type: 'authorization_code', code: issued, code_verifier: verifier })}&code=other&code_verifier=other`, basic());
    expect(both).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: 'The code, code_verifier parameters are repeated' } });
    // Userinfo's form too: its one parameter, sent twice.
    const access = (await postForm('/api/v1/oauth/token', form({ grant_type: 'authorization_code', code: issued, code_verifier: verifier, redirect_uri: CALLBACK }), basic())).body!.access_token as string;
    const userinfo = await postForm('/api/v1/oauth/userinfo', `${form({ access_token: access })}&access_token=${access}`);
    expect(userinfo).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: 'The access_token parameter is repeated' } });
  });

  it('one it knows, too long, is refused with its limit, not taken for a repeat', async () => {
    const issued = (await code()).body.code as string;
    const exchange = (codeVerifier: string) => postForm('/api/v1/oauth/token', form({ grant_type: 'authorization_code', code: issued, code_verifier: codeVerifier, redirect_uri: CALLBACK }), basic());
    expect(await exchange('v'.repeat(8001))).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: 'code_verifier: must be at most 8000 characters' } });
    expect((await exchange(verifier)).status, 'refused before the code was looked at').toBe(200);
  });

  it('a form posted to /auth or /signout goes on as the same GET: unknown names left behind, a known one kept repeated for the page to refuse', async () => {
    const auth = await postForm('/auth', `client_id=${service.clientId}&x=1&x=2&scope=openid&scope=email`);
    expect([auth.status, auth.headers.get('location')]).toEqual([303, `/auth?client_id=${service.clientId}&scope=openid&scope=email`]);
    const signout = await postForm('/signout', 'state=a&x=1&x=2&state=b');
    expect([signout.status, signout.headers.get('location')]).toEqual([303, '/signout?state=a&state=b']);
    // The page's check refuses the repeat, back at the service.
    const checked = await oidcJson(f.issuer, 'GET', `/api/v1/oauth/authorize?client_id=${service.clientId}&redirect_uri=${encodeURIComponent(CALLBACK)}&response_type=code&state=st&scope=openid&scope=email`);
    expect(Object.fromEntries(new URL(checked.body.redirect_to).searchParams)).toMatchObject({ error: 'invalid_request', error_description: 'The scope parameter is repeated', state: 'st' });
  });
});

describe("a registered redirect URI's own query is kept as registered (RFC 6749 §3.1.2)", () => {
  it('the code and an error are added after it, nothing in it rewritten', async () => {
    const registered = `${CALLBACK}?next=/a%20b&flag`;
    service = await f.createService({ name: 'With a query', redirect_uris: [registered] });
    const issued = await code({ redirect_uri: registered });
    expect(issued.body.redirect_to).toBe(`${registered}&code=${issued.body.code as string}&state=st&iss=${encodeURIComponent(f.issuer)}`);
    // The same redirect_uri, byte for byte, is what the token request must name.
    const exchanged = await postForm('/api/v1/oauth/token', form({ grant_type: 'authorization_code', code: issued.body.code as string, code_verifier: verifier, redirect_uri: registered }), basic());
    expect(exchanged.status).toBe(200);
    const refused = await code({ redirect_uri: registered, prompt: 'bogus' });
    expect(refused.body.redirect_to).toMatch(new RegExp(`^${registered.replace(/[?.*+^$()[\]\\/]/g, '\\$&')}&error=invalid_request&`));
  });
});

describe('an error_description holds only the characters RFC 6749 allows it (§4.1.2.1, §5.2)', () => {
  const allowed = /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/;

  it('echoing what the service sent, on its way back to the service', async () => {
    const refused = await code({ prompt: '"x\\y Éé<svg>' });
    const description = new URL(refused.body.redirect_to).searchParams.get('error_description')!;
    expect(description).toBe("Unsupported prompt: 'x/y Ee<svg>");
    expect(description).toMatch(allowed);
  });

  it('echoing what the service sent, at the token endpoint; the app still shows a service name as written', async () => {
    const grant = await postForm('/api/v1/oauth/token', form({ grant_type: 'ünknown"' }), basic());
    expect(grant.body).toEqual({ error: 'unsupported_grant_type', error_description: "grant_type unknown' is not supported" });
    const onlyGroups = await f.createService({ name: 'Café 日本', allowed_groups: ['family'] });
    const shown = await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { client_id: onlyGroups.clientId, redirect_uri: CALLBACK, scope: 'openid', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' }, f.user.access);
    expect(shown.body.error_description).toMatch(/^Café 日本 is open only to some groups/);
  });
});

describe('userinfo refusals carry their challenge (RFC 6750 §3), which browser apps may read', () => {
  it('a token in the address, or sent twice, is invalid_request with a Bearer challenge', async () => {
    const inQuery = await fetch(`${f.issuer}/api/v1/oauth/userinfo?access_token=x`, { headers: { origin: 'https://app.example' } });
    expect(inQuery.status).toBe(400);
    expect(inQuery.headers.get('www-authenticate')).toBe('Bearer error="invalid_request", error_description="Send the access token in the Authorization header (Bearer), not in the address"');
    expect(inQuery.headers.get('access-control-expose-headers')).toBe('WWW-Authenticate');
    // A Bearer header without its token is a second way all the same.
    for (const header of ['Bearer x', 'Bearer']) {
      const twice = await postForm('/api/v1/oauth/userinfo', 'access_token=x', header);
      expect(twice.headers.get('www-authenticate'), header).toBe('Bearer error="invalid_request", error_description="Send the access token once, not twice"');
    }
    const bad = await fetch(`${f.issuer}/api/v1/oauth/userinfo`, { headers: { authorization: 'Bearer nope' } });
    expect([bad.status, bad.headers.get('www-authenticate'), bad.headers.get('access-control-expose-headers')]).toEqual([401, 'Bearer error="invalid_token"', 'WWW-Authenticate']);
  });

  it('a request with no token, or only another scheme\'s, is challenged for a Bearer token, the challenge naming no error (RFC 6750 §3.1)', async () => {
    const asked = { status: 401, error: 'invalid_token', description: 'An access token is required', challenge: 'Bearer' };
    for (const [name, sent] of [
      ['none', fetch(`${f.issuer}/api/v1/oauth/userinfo`)],
      ['Basic', fetch(`${f.issuer}/api/v1/oauth/userinfo`, { headers: { authorization: `Basic ${btoa('a:b')}` } })],
      ['empty form', fetch(`${f.issuer}/api/v1/oauth/userinfo`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' })],
    ] as const) {
      const response = await sent;
      const { error, error_description: description } = await response.json();
      expect({ status: response.status, error, description, challenge: response.headers.get('www-authenticate') }, name).toEqual(asked);
    }
  });
});

describe('an unknown or disabled service at the authorization endpoint', () => {
  it('is shown to the person with 400, not a 401 the app takes for its own token refused', async () => {
    const unknown = await oidcJson(f.issuer, 'GET', `/api/v1/oauth/authorize?client_id=nope&redirect_uri=${encodeURIComponent(CALLBACK)}&response_type=code&scope=openid`);
    expect(unknown).toMatchObject({ status: 400, body: { error: 'invalid_client', error_description: 'Unknown client' } });
    expect(unknown.body.redirect_to).toBeUndefined();
    await oidcJson(f.issuer, 'PATCH', `/api/v1/admin/api-services/toggle/${service.id}`, { is_active: false }, f.adminToken);
    expect(await code()).toMatchObject({ status: 400, body: { error: 'invalid_client', error_description: 'This service is disabled' } });
  });
});

describe('introspection without a token (RFC 7662 §2.1: token is required)', () => {
  it('is invalid_request, as revocation answers it, not an inactive token', async () => {
    for (const path of ['/api/v1/oauth/introspect', '/api/v1/oauth/revoke']) {
      expect(await postForm(path, form({ token_type_hint: 'access_token' }), basic()), path).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: 'token is missing' } });
    }
    expect(await postForm('/api/v1/oauth/introspect', form({ token: 'unknown' }), basic())).toMatchObject({ status: 200, body: { active: false } });
  });
});

describe('a grant without what it is granted on (RFC 6749 §4.1.3, §6)', () => {
  it('is invalid_request naming the parameter, sent without a value or not at all', async () => {
    for (const [grant, name] of [['authorization_code', 'code'], ['refresh_token', 'refresh_token']] as const) {
      for (const body of [form({ grant_type: grant, redirect_uri: CALLBACK, code_verifier: verifier }), form({ grant_type: grant, [name]: '' })]) {
        expect(await postForm('/api/v1/oauth/token', body, basic()), body).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: `${name} is missing` } });
      }
    }
  });
});
