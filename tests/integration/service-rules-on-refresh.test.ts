import * as client from 'openid-client';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { CALLBACK, oidcJson, startOidcFixture, type OidcFixture } from '../support/oidc-fixture';

// A refresh, and a code's exchange, are judged by the service's rules as they are at the time,
// not at the sign-in (RFC 9700 §4.14.2): what an administrator changes reaches the service's
// sessions at their next refresh, within one access token's lifetime, without anyone having to
// sign them out.

let f: OidcFixture;
beforeEach(async () => {
  f = await startOidcFixture();
});
afterEach(async () => f.close());

async function signedIn(overrides: Record<string, unknown> = {}) {
  const service = await f.createService(overrides);
  const config = await f.relyingParty(service);
  const { tokens } = await f.signInToService(config, { scope: 'openid email offline_access' });
  return { service, config, refreshToken: tokens.refresh_token! };
}

const users = async () => (await oidcJson(f.issuer, 'GET', '/api/v1/admin/users?search=olivia', undefined, f.adminToken)).body.items as Array<{ id: string; full_name: string; email: string; is_admin: boolean }>;
const setGroups = async (groups: string[]) => {
  const [olivia] = await users();
  const answer = await oidcJson(f.issuer, 'PUT', `/api/v1/admin/users/${olivia!.id}`, { full_name: olivia!.full_name, email: olivia!.email, is_admin: false, groups }, f.adminToken);
  expect(answer.status).toBe(200);
};
const editService = async (service: { id: string }, changes: Record<string, unknown>) => {
  const current = (await oidcJson(f.issuer, 'GET', `/api/v1/admin/api-services/${service.id}`, undefined, f.adminToken)).body;
  const { id: _id, client_id: _c, is_active: _a, public_client: _p, created_at: _cr, updated_at: _u, ...editable } = current;
  expect((await oidcJson(f.issuer, 'PUT', `/api/v1/admin/api-services/${service.id}`, { ...editable, ...changes }, f.adminToken)).status).toBe(200);
};
const refused = async (config: client.Configuration, refreshToken: string) => {
  const error = await client.refreshTokenGrant(config, refreshToken).then(() => undefined, (caught: client.ResponseBodyError) => caught);
  return error && { error: error.error, description: error.error_description };
};

it('an account taken out of the groups a service is open to is refused its next refresh, and the session ends', async () => {
  await setGroups(['family']);
  const { config, refreshToken } = await signedIn({ allowed_groups: ['family'] });
  const kept = await client.refreshTokenGrant(config, refreshToken);
  await setGroups(['guests']);
  expect(await refused(config, kept.refresh_token!)).toEqual({ error: 'invalid_grant', description: 'The service no longer lets this sign-in in' });
  // Ended: put back in the group, the same token still does not work.
  await setGroups(['family']);
  expect((await refused(config, kept.refresh_token!))?.error).toBe('invalid_grant');
});

it('a service that came to require two-step sign-in refuses the refresh of a sign-in without it', async () => {
  const { service, config, refreshToken } = await signedIn();
  await editService(service, { require_two_step: true });
  expect((await refused(config, refreshToken))?.error).toBe('invalid_grant');
});

it('a scope the service has given up since is no longer in what a refresh hands out', async () => {
  const { service, config, refreshToken } = await signedIn();
  await editService(service, { scopes: ['openid', 'profile', 'offline_access'] });
  const refreshed = await client.refreshTokenGrant(config, refreshToken);
  expect(refreshed.scope).toBe('openid offline_access');
  expect(refreshed.claims()?.email).toBeUndefined();
  const userinfo = await client.fetchUserInfo(config, refreshed.access_token, refreshed.claims()!.sub);
  expect(userinfo.email).toBeUndefined();
  // openid is the grant itself, not a scope given up: without it, userinfo would refuse the token.
  await editService(service, { scopes: ['profile', 'offline_access'] });
  const again = await client.refreshTokenGrant(config, refreshed.refresh_token!);
  expect(again.scope).toBe('openid offline_access');
  expect((await client.fetchUserInfo(config, again.access_token, refreshed.claims()!.sub)).sub).toBe(refreshed.claims()!.sub);
});

it('a code given before the service changed, or before the person withdrew their approval, is judged at its exchange as things are then', async () => {
  const service = await f.createService();
  const config = await f.relyingParty(service);
  /** The consent screen has given a code; the service has not exchanged it yet. */
  const codeGiven = async () => {
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: 'openid email offline_access', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
    const callback = await f.allow(url);
    return () => client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
  };
  const refusal = (exchange: () => Promise<unknown>) => exchange().then(() => undefined, (caught: client.ResponseBodyError) => `${caught.error}: ${caught.error_description}`);

  let exchange = await codeGiven();
  await editService(service, { scopes: ['openid', 'profile', 'offline_access'] });
  const narrowed = await exchange();
  expect(narrowed.scope).toBe('openid offline_access');
  expect(narrowed.claims()?.email).toBeUndefined();
  await editService(service, { scopes: ['openid', 'email', 'profile', 'offline_access'] });

  exchange = await codeGiven();
  await editService(service, { redirect_uris: ['https://grafana.home.lan/login/generic_oauth', CALLBACK] });
  expect((await exchange()).access_token, 'another URI added: still registered').toEqual(expect.any(String));
  exchange = await codeGiven();
  await editService(service, { redirect_uris: ['https://grafana.home.lan/login/generic_oauth'] });
  expect(await refusal(exchange)).toBe('invalid_grant: redirect_uri is no longer registered for this service');
  await editService(service, { redirect_uris: [CALLBACK] });

  await setGroups(['family']);
  exchange = await codeGiven();
  await editService(service, { allowed_groups: ['admins'] });
  expect(await refusal(exchange)).toBe('invalid_grant: The service no longer lets this sign-in in');
  await editService(service, { allowed_groups: [] });

  exchange = await codeGiven();
  expect((await oidcJson(f.issuer, 'DELETE', `/api/v1/auth/services/${service.id}`, undefined, f.user.access)).status).toBe(200);
  expect(await refusal(exchange)).toMatch(/^invalid_grant: /);
  expect((await oidcJson(f.issuer, 'GET', '/api/v1/auth/services', undefined, f.user.access)).body.items).toEqual([]);
});

it('a service no longer given the refresh grant is told at introspection that its refresh tokens are not active, as its token endpoint refuses them', async () => {
  const { service, config, refreshToken } = await signedIn();
  expect((await client.tokenIntrospection(config, refreshToken)).active).toBe(true);
  await editService(service, { grant_types: ['authorization_code'] });
  expect((await client.tokenIntrospection(config, refreshToken)).active).toBe(false);
  expect((await refused(config, refreshToken))?.error).toBe('unauthorized_client');
});
