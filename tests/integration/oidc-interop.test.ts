import { decodeProtectedHeader } from 'jose';
import * as client from 'openid-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JWKS_MAX_AGE_SECONDS } from '../../server/keys/signing-keys';
import { totpCode, totpStep } from '../../server/two-step/totp';
import { CALLBACK, oidcJson, startOidcFixture, type OidcFixture } from '../support/oidc-fixture';

let f: OidcFixture;
beforeEach(async () => {
  f = await startOidcFixture();
});
afterEach(async () => f.close());

describe('a real relying party (openid-client)', () => {
  it('discovers, signs in with PKCE, state and nonce, reads userinfo, refreshes, revokes', async () => {
    const service = await f.createService();
    const config = await f.relyingParty(service);
    expect(config.serverMetadata().issuer).toBe(f.issuer);

    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      scope: 'openid email profile offline_access',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    expect(url.origin + url.pathname).toBe(`${f.issuer}/auth`);
    const signedInAt = Math.floor(f.t.app.services.clock() / 1000);
    f.t.advance(7_000);
    const callback = await f.allow(url);
    expect(callback.searchParams.get('iss')).toBe(f.issuer);

    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: f.issuer, aud: service.clientId, email: f.user.email, name: f.user.name, preferred_username: 'olivia', azp: service.clientId, nonce });
    expect([claims.auth_time, claims.iat, claims.exp]).toEqual([signedInAt, signedInAt + 7, signedInAt + 7 + 900]);
    expect(decodeProtectedHeader(tokens.id_token!)).toEqual({ alg: 'RS256', kid: expect.any(String), typ: 'JWT' });
    expect(claims.amr).toEqual(['pwd']);
    expect(tokens.expires_in).toBe(900);
    expect(tokens.refresh_token).toBeTruthy();

    const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).toMatchObject({ sub: claims.sub, email: f.user.email, email_verified: true, name: f.user.name, preferred_username: 'olivia' });
    expect(String(info.picture)).toMatch(new RegExp(`^${f.issuer}/avatars/`));
    expect(claims.picture, 'the ID token names the same picture').toBe(info.picture);

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.claims()?.sub).toBe(claims.sub);
    expect((await client.fetchUserInfo(config, refreshed.access_token, claims.sub)).sub).toBe(claims.sub);

    await client.tokenRevocation(config, refreshed.refresh_token!);
    await expect(client.fetchUserInfo(config, refreshed.access_token, claims.sub)).rejects.toThrow();
    const raw = await fetch(`${f.issuer}/api/v1/oauth/userinfo`, { headers: { authorization: `Bearer ${refreshed.access_token}` } });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('says in amr how the sign-in proved who it was (RFC 8176), and a refresh keeps saying it', async () => {
    const service = await f.createService();
    const config = await f.relyingParty(service);
    const signInWith = async (token: string) => (await f.signInToService(config, { token })).tokens;
    expect((await signInWith(f.user.access)).claims()!.amr).toEqual(['pwd']);

    // Two-step sign-in on: a sign-in with the app's code, and one with a recovery code.
    const step = totpStep(f.t.app.services.clock());
    const { secret } = (await oidcJson(f.issuer, 'POST', '/api/v1/auth/two-step/setup', {}, f.user.access)).body;
    const on = await oidcJson(f.issuer, 'PUT', '/api/v1/auth/two-step', { secret, code: totpCode(secret, step), current_password: f.user.password }, f.user.access);
    const { email, password } = f.user;
    for (const code of [totpCode(secret, step + 1), on.body.recovery_codes[0]]) {
      const login = await oidcJson(f.issuer, 'POST', '/api/v1/auth/login', { email, password, code });
      expect(login.status).toBe(200);
      const tokens = await signInWith(login.body.access);
      expect(tokens.claims()!.amr, code).toEqual(['pwd', 'otp', 'mfa']);
      expect((await client.refreshTokenGrant(config, tokens.refresh_token!)).claims()!.amr).toEqual(['pwd', 'otp', 'mfa']);
    }
    // The session signed in before two-step sign-in was on says what that sign-in was.
    const older = await signInWith(f.user.access);
    expect(older.claims()!.amr).toEqual(['pwd']);
    expect((await client.refreshTokenGrant(config, older.refresh_token!)).claims()!.amr).toEqual(['pwd']);
  });

  it('tells a service that asks for scope groups the groups an administrator put the person in, and only then', async () => {
    const service = await f.createService({ scopes: ['openid', 'email', 'groups', 'offline_access'] });
    const config = await f.relyingParty(service);
    expect(config.serverMetadata().scopes_supported).toContain('groups');
    expect(config.serverMetadata().claims_supported).toContain('groups');
    const signIn = async (scope: string) => (await f.signInToService(config, { scope })).tokens;

    const none = await signIn('openid groups');
    expect(none.claims()!.groups, 'in no group: an empty list').toEqual([]);
    const userId = none.claims()!.sub;
    const person = (await oidcJson(f.issuer, 'GET', `/api/v1/admin/users/${userId}`, undefined, f.adminToken)).body;
    const put = await oidcJson(f.issuer, 'PUT', `/api/v1/admin/users/${userId}`, { full_name: person.full_name, email: person.email, phone_number: null, is_admin: false, groups: ['family', 'grafana-admins'] }, f.adminToken);
    expect(put.status).toBe(200);

    const tokens = await signIn('openid groups offline_access');
    expect(tokens.claims()!.groups).toEqual(['family', 'grafana-admins']);
    expect((await client.fetchUserInfo(config, tokens.access_token, userId)).groups).toEqual(['family', 'grafana-admins']);
    expect((await client.refreshTokenGrant(config, tokens.refresh_token!)).claims()!.groups).toEqual(['family', 'grafana-admins']);
    const without = await signIn('openid email');
    expect(without.claims()!.groups).toBeUndefined();
    expect((await client.fetchUserInfo(config, without.access_token, userId)).groups).toBeUndefined();
  });

  it("sends a mobile app back to its own scheme (RFC 8252), as Immich's app asks", async () => {
    const APP_CALLBACK = 'app.immich:///oauth-callback';
    const service = await f.createService({ redirect_uris: [CALLBACK, APP_CALLBACK] });
    const config = await f.relyingParty(service);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: APP_CALLBACK, scope: 'openid email', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state });
    const callback = await f.allow(url);
    expect(callback.href.startsWith(`${APP_CALLBACK}?`)).toBe(true);
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, idTokenExpected: true });
    expect(tokens.claims()).toMatchObject({ aud: service.clientId, email: f.user.email });
    // Exact matching still holds for such a scheme: another path of it is refused.
    const other = client.buildAuthorizationUrl(config, { redirect_uri: 'app.immich:///other', scope: 'openid', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
    const refused = await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', Object.fromEntries(other.searchParams), f.user.access);
    expect(refused.status).toBe(400);
    expect(refused.body.redirect_to).toBeUndefined();
  });

  it('signs ID tokens with ES256 for a service that asks for it, verifiable through the JWKS', async () => {
    const service = await f.createService({ id_token_signed_response_alg: 'ES256' });
    const config = await client.discovery(new URL(f.issuer), service.clientId, { client_secret: service.clientSecret, id_token_signed_response_alg: 'ES256' }, client.ClientSecretPost(service.clientSecret), { execute: [client.allowInsecureRequests] });
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: 'openid', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
    const tokens = await client.authorizationCodeGrant(config, await f.allow(url), { pkceCodeVerifier: verifier });
    expect(JSON.parse(Buffer.from(tokens.id_token!.split('.')[0]!, 'base64url').toString()).alg).toBe('ES256');
    expect(tokens.claims()!.email).toBeUndefined();

    // Such an ID token is taken back as a hint, as an RS256 one is: silently naming the person
    // signed in, and naming whom a sign-out ends.
    const silent = client.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: 'openid', prompt: 'none', id_token_hint: tokens.id_token!, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
    const again = await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', Object.fromEntries(silent.searchParams), f.user.access);
    expect(new URL(again.body.redirect_to).searchParams.has('code'), JSON.stringify(again.body)).toBe(true);
    const signedOut = await oidcJson(f.issuer, 'POST', '/api/v1/oauth/end-session', { id_token_hint: tokens.id_token, post_logout_redirect_uri: CALLBACK });
    expect(signedOut.body).toEqual({ redirect_to: CALLBACK, subject: tokens.claims()!.sub });
  });

  it('advertises every claim its ID tokens and userinfo carry', async () => {
    const config = await f.relyingParty(await f.createService({ scopes: ['openid', 'email', 'profile', 'groups', 'offline_access'] }));
    const { tokens } = await f.signInToService(config, { scope: 'openid email profile groups offline_access' });
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    const given = new Set([tokens.claims()!, refreshed.claims()!, await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub)].flatMap((claims) => Object.keys(claims)));
    expect(given).toContain('groups');
    expect([...given].filter((claim) => !config.serverMetadata().claims_supported!.includes(claim))).toEqual([]);
  });

  it('publishes a discovery document whose every endpoint answers', async () => {
    const discovery = (await oidcJson(f.issuer, 'GET', '/.well-known/openid-configuration')).body;
    // What relying parties read to decide how to talk to us, written out here: a change is a decision.
    expect(discovery).toMatchObject({
      issuer: f.issuer,
      scopes_supported: ['openid', 'email', 'profile', 'offline_access', 'groups'],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256', 'ES256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      code_challenge_methods_supported: ['S256'],
      claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'jti', 'auth_time', 'amr', 'nonce', 'at_hash', 'azp', 'sid', 'email', 'email_verified', 'name', 'preferred_username', 'picture', 'groups'],
      claims_parameter_supported: false,
      request_parameter_supported: false,
      request_uri_parameter_supported: false,
      require_request_uri_registration: false,
      prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
      authorization_response_iss_parameter_supported: true,
      frontchannel_logout_supported: false,
      backchannel_logout_supported: false,
    });
    for (const key of ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'jwks_uri', 'revocation_endpoint', 'introspection_endpoint', 'end_session_endpoint']) {
      const response = await fetch(discovery[key], { method: key.startsWith('token') || key.startsWith('revocation') || key.startsWith('introspection') ? 'POST' : 'GET' });
      expect(response.status, key).toBeLessThan(500);
      expect(response.status, key).not.toBe(404);
    }
    for (const [path, maxAge] of [['/.well-known/openid-configuration', 3600], ['/.well-known/jwks.json', JWKS_MAX_AGE_SECONDS]] as const) {
      const response = await fetch(`${f.issuer}${path}`);
      expect([response.headers.get('content-type'), response.headers.get('cache-control'), response.headers.get('access-control-allow-origin')]).toEqual(['application/json; charset=utf-8', `public, max-age=${maxAge}`, '*']);
    }
    const jwks = (await oidcJson(f.issuer, 'GET', '/.well-known/jwks.json')).body;
    expect(jwks.keys.map((k: { alg: string }) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    // Public halves only, each marked for signatures (RFC 7517 §4.2), as relying parties that pick keys by use expect.
    const fields = Object.fromEntries(jwks.keys.map((k: Record<string, string>) => [k.alg, { use: k.use, kid: typeof k.kid, fields: Object.keys(k).sort() }]));
    expect(fields).toEqual({
      ES256: { use: 'sig', kid: 'string', fields: ['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y'] },
      RS256: { use: 'sig', kid: 'string', fields: ['alg', 'e', 'kid', 'kty', 'n', 'use'] },
    });
  });
});
