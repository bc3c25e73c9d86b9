import * as client from 'openid-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOidcFixture, type OidcFixture } from '../support/oidc-fixture';

// Userinfo, introspection (RFC 7662) and revocation (RFC 7009) find a service's tokens the same
// way; each check below is what keeps one kind of token out of the others' places.

const ACCESS_TOKEN_TTL = 900;
const REFRESH_TOKEN_TTL = 30 * 24 * 3600;

let f: OidcFixture;
let grafana: client.Configuration;
let immich: client.Configuration;
beforeEach(async () => {
  f = await startOidcFixture({ ACCESS_TOKEN_TTL: String(ACCESS_TOKEN_TTL), REFRESH_TOKEN_TTL: String(REFRESH_TOKEN_TTL) });
  grafana = await f.relyingParty(await f.createService());
  immich = await f.relyingParty(await f.createService({ name: 'Immich' }));
});
afterEach(async () => f.close());

const signIn = async () => {
  const { tokens } = await f.signInToService(grafana);
  return { access: tokens.access_token, refresh: tokens.refresh_token! };
};
const userinfo = async (token: string) => {
  const response = await fetch(`${f.issuer}/api/v1/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, challenge: response.headers.get('www-authenticate'), body: await response.json() };
};
const isActive = async (token: string) => (await client.tokenIntrospection(grafana, token)).active;
const seconds = (ms: number) => Math.floor(ms / 1000);

describe('revocation', () => {
  it("another client's tokens: told 200 as RFC 7009 asks, and nothing ends", async () => {
    const tokens = await signIn();
    await client.tokenRevocation(immich, tokens.access);
    await client.tokenRevocation(immich, tokens.refresh);
    expect((await userinfo(tokens.access)).status).toBe(200);
    expect(await isActive(tokens.refresh)).toBe(true);
    expect((await client.refreshTokenGrant(grafana, tokens.refresh)).access_token).toBeTruthy();
  });

  it('an access token ends alone; a refresh token ends the whole service session', async () => {
    const tokens = await signIn();
    await client.tokenRevocation(grafana, tokens.access);
    expect((await userinfo(tokens.access)).status).toBe(401);
    expect(await isActive(tokens.access)).toBe(false);
    expect(await isActive(tokens.refresh)).toBe(true);

    const refreshed = await client.refreshTokenGrant(grafana, tokens.refresh);
    expect((await userinfo(refreshed.access_token)).status).toBe(200);
    await client.tokenRevocation(grafana, refreshed.refresh_token!);
    expect((await userinfo(refreshed.access_token)).status).toBe(401);
    expect(await isActive(refreshed.refresh_token!)).toBe(false);
    await expect(client.refreshTokenGrant(grafana, refreshed.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant', error_description: 'The refresh token has expired or was revoked' });
  });
});

describe('userinfo', () => {
  it('takes no refresh token for an access token: 401 invalid_token, and the refresh token is not spent', async () => {
    const tokens = await signIn();
    expect(await userinfo(tokens.refresh)).toEqual({
      status: 401,
      challenge: 'Bearer error="invalid_token"',
      body: { error: 'invalid_token', error_description: 'The access token is invalid, expired or revoked' },
    });
    expect((await client.refreshTokenGrant(grafana, tokens.refresh)).access_token).toBeTruthy();
  });
});

describe('introspection', () => {
  it('tells another client only that the token is inactive', async () => {
    const tokens = await signIn();
    for (const token of [tokens.access, tokens.refresh]) expect(await client.tokenIntrospection(immich, token)).toEqual({ active: false });
    expect(await isActive(tokens.access)).toBe(true);
  });

  it('tells each token’s kind, when it was issued and when it ends, not when it was asked', async () => {
    const issuedAt = seconds(f.t.app.services.clock());
    const tokens = await signIn();
    const { sub } = (await userinfo(tokens.access)).body;
    f.t.advance(5_000);
    const about = { active: true, sub, client_id: grafana.clientMetadata().client_id, scope: 'openid offline_access', iat: issuedAt };
    expect(await client.tokenIntrospection(grafana, tokens.access)).toEqual({ ...about, token_type: 'Bearer', exp: issuedAt + ACCESS_TOKEN_TTL });
    expect(await client.tokenIntrospection(grafana, tokens.refresh)).toEqual({ ...about, token_type: 'refresh_token', exp: issuedAt + REFRESH_TOKEN_TTL });
  });

  it('an expired access token is inactive while its refresh token still works', async () => {
    const tokens = await signIn();
    f.t.advance((ACCESS_TOKEN_TTL - 1) * 1000);
    expect(await isActive(tokens.access)).toBe(true);
    f.t.advance(1000);
    expect(await isActive(tokens.access)).toBe(false);
    expect((await userinfo(tokens.access)).status).toBe(401);
    expect(await isActive(tokens.refresh)).toBe(true);
  });

  it('a refresh token used once is inactive, and asking about it is not taken for a replay', async () => {
    const tokens = await signIn();
    const refreshed = await client.refreshTokenGrant(grafana, tokens.refresh);
    expect(await isActive(tokens.refresh)).toBe(false);
    expect(await isActive(refreshed.refresh_token!)).toBe(true);
    expect((await userinfo(refreshed.access_token)).status).toBe(200);
  });
});
