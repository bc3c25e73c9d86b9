import * as client from 'openid-client';
import { afterEach, expect, it } from 'vitest';
import { CALLBACK, oidcJson, startOidcFixture, type OidcFixture } from '../support/oidc-fixture';

// A service session ends SESSION_MAX_AGE after the sign-in behind it, however often the service
// refreshes (README: SESSION_MAX_AGE; ASVS V3.3.2), as a session of the app itself does.

const SECOND = 1_000;
let f: OidcFixture;
afterEach(async () => f.close());

async function signInToService(env: Record<string, string>) {
  f = await startOidcFixture(env);
  const service = await f.createService();
  const basic = `Basic ${Buffer.from(`${service.clientId}:${service.clientSecret}`).toString('base64')}`;
  const token = async (form: Record<string, string>) => {
    const response = await fetch(`${f.issuer}/api/v1/oauth/token`, { method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
    return { status: response.status, body: await response.json() };
  };
  const verifier = client.randomPKCECodeVerifier();
  const challenge = await client.calculatePKCECodeChallenge(verifier);
  const code = async () => {
    const params = { client_id: service.clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid email offline_access', code_challenge: challenge, code_challenge_method: 'S256' };
    return (await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', params, f.user.access)).body.code as string;
  };
  const exchange = (c: string) => token({ grant_type: 'authorization_code', code: c, redirect_uri: CALLBACK, code_verifier: verifier });
  const refresh = (refreshToken: string) => token({ grant_type: 'refresh_token', refresh_token: refreshToken });
  const userinfo = async (access: string) => (await fetch(`${f.issuer}/api/v1/oauth/userinfo`, { headers: { authorization: `Bearer ${access}` } })).status;
  const introspect = async (tokenToAsk: string) =>
    (await (await fetch(`${f.issuer}/api/v1/oauth/introspect`, { method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: tokenToAsk }) })).json()) as { active: boolean; exp?: number };
  return { code, exchange, refresh, userinfo, introspect };
}

const idTokenClaims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { exp: number; auth_time: number };

it('refreshing within REFRESH_TOKEN_TTL keeps a service session only until SESSION_MAX_AGE after the sign-in', async () => {
  // The fixture's user signed in when the clock last moved: that is the sign-in the service gets.
  const { code, exchange, refresh, userinfo } = await signInToService({ ACCESS_TOKEN_TTL: '600', REFRESH_TOKEN_TTL: '1800', SESSION_MAX_AGE: '3600' });
  let issued = await exchange(await code());
  expect(issued.status).toBe(200);
  // Refreshed every 1100 s (< 1800), the last time at 3300 s: its access token would run to 3900 s.
  for (let elapsed = 1100; elapsed <= 3300; elapsed += 1100) {
    f.t.advance(1100 * SECOND);
    issued = await refresh(issued.body.refresh_token);
    expect(issued.status, `refresh at ${elapsed} s`).toBe(200);
  }
  f.t.advance(299 * SECOND);
  expect(await userinfo(issued.body.access_token)).toBe(200);

  f.t.advance(1 * SECOND);
  expect(await userinfo(issued.body.access_token)).toBe(401);
  const refused = await refresh(issued.body.refresh_token);
  expect(refused.status).toBe(400);
  expect(refused.body.error).toBe('invalid_grant');
});

it('a service is told its tokens end with the session: expires_in, the ID token\'s exp and introspection agree', async () => {
  const { code, exchange, refresh, introspect } = await signInToService({ ACCESS_TOKEN_TTL: '600', REFRESH_TOKEN_TTL: '1800', SESSION_MAX_AGE: '3600' });
  let issued = await exchange(await code());
  expect(issued.body.expires_in).toBe(600);
  const signInEnd = idTokenClaims(issued.body.id_token).auth_time + 3600;
  f.t.advance(1700 * SECOND);
  issued = await refresh(issued.body.refresh_token);
  f.t.advance(1600 * SECOND);
  // 300 s of the sign-in are left, not the 600 an access token would otherwise get.
  issued = await refresh(issued.body.refresh_token);
  expect(issued.body.expires_in).toBe(300);
  expect(idTokenClaims(issued.body.id_token).exp).toBe(signInEnd);
  expect(await introspect(issued.body.access_token)).toMatchObject({ active: true, exp: signInEnd });
  expect(await introspect(issued.body.refresh_token)).toMatchObject({ active: true, exp: signInEnd });
});

it('a code exchanged SESSION_MAX_AGE after its sign-in, to the millisecond, is refused', async () => {
  // The app's own session lasts SESSION_MAX_AGE too, and its access token a little less (a
  // session no longer than its token is refused at start): the code is asked for just before both end.
  const { code, exchange } = await signInToService({ ACCESS_TOKEN_TTL: '290', REFRESH_TOKEN_TTL: '1800', SESSION_MAX_AGE: '300' });
  f.t.advance(289 * SECOND);
  const late = await code();
  f.t.advance(11 * SECOND);
  const refused = await exchange(late);
  expect(refused.status).toBe(400);
  expect(refused.body).toMatchObject({ error: 'invalid_grant', error_description: 'The sign-in behind this code has ended' });
});

it('a session stored with a later end (opened before SESSION_MAX_AGE was lowered) is refused a refresh all the same, and its tokens are not active', async () => {
  const { code, exchange, refresh, userinfo, introspect } = await signInToService({ ACCESS_TOKEN_TTL: '600', REFRESH_TOKEN_TTL: '1800', SESSION_MAX_AGE: '3600' });
  const issued = await exchange(await code());
  await f.t.db.updateTable('service_sessions').set((eb) => ({ expires_at: eb('expires_at', '+', 86_400 * SECOND) })).execute();
  await f.t.db.updateTable('service_tokens').set((eb) => ({ expires_at: eb('expires_at', '+', 86_400 * SECOND) })).execute();
  f.t.advance(3600 * SECOND);
  // Introspection and userinfo say what the token endpoint does (RFC 7662 §2.2: active only while valid).
  expect(await introspect(issued.body.refresh_token)).toEqual({ active: false });
  expect(await introspect(issued.body.access_token)).toEqual({ active: false });
  expect(await userinfo(issued.body.access_token)).toBe(401);
  expect((await refresh(issued.body.refresh_token)).body.error).toBe('invalid_grant');
});

it('a refresh in the sign-in\'s last second is answered, its access token told to last 0 s', async () => {
  const { code, exchange, refresh, userinfo } = await signInToService({ ACCESS_TOKEN_TTL: '600', REFRESH_TOKEN_TTL: '3600', SESSION_MAX_AGE: '3600' });
  const issued = await exchange(await code());
  f.t.advance(3599.5 * SECOND);
  const last = await refresh(issued.body.refresh_token);
  expect(last).toMatchObject({ status: 200, body: { expires_in: 0 } });
  expect(await userinfo(last.body.access_token)).toBe(200);
});

it('a refresh token is answered until the millisecond REFRESH_TOKEN_TTL ends, and refused from it', async () => {
  const { code, exchange, refresh } = await signInToService({ ACCESS_TOKEN_TTL: '600', REFRESH_TOKEN_TTL: '1800', SESSION_MAX_AGE: '3600' });
  const [first, second] = [await exchange(await code()), await exchange(await code())];
  f.t.advance(1800 * SECOND - 1);
  expect((await refresh(first.body.refresh_token)).status).toBe(200);
  f.t.advance(1);
  expect((await refresh(second.body.refresh_token)).body).toEqual({ error: 'invalid_grant', error_description: 'The refresh token has expired or was revoked' });
});
