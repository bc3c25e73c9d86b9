import { describe, expect, it } from 'vitest';
import { hashToken, newOpaqueToken } from '../../server/sessions/tokens';
import { CALLBACK, codeRequest, eachTestWithAService, TEST_VERIFIER as verifier, tokenRequest, type FixtureService, type OidcFixture } from '../support/oidc-fixture';

// What a service's access token gets at userinfo, and how service tokens are read.

let f: OidcFixture;
let service: FixtureService;
eachTestWithAService((fixture, created) => ([f, service] = [fixture, created]));

const code = () => codeRequest(f, service);
const token = (form: Record<string, string>) => tokenRequest(f.issuer, service, form);
const exchange = async (c: string) => token({ grant_type: 'authorization_code', code: c, redirect_uri: CALLBACK, code_verifier: verifier });

describe('the userinfo endpoint', () => {
  it('userinfo answers GET and POST with a bearer header, and POST with access_token in the form', async () => {
    const issued = await exchange((await code()).body.code);
    const access = issued.body.access_token;
    const get = await fetch(`${f.issuer}/api/v1/oauth/userinfo`, { headers: { authorization: `Bearer ${access}` } });
    const post = await fetch(`${f.issuer}/api/v1/oauth/userinfo`, { method: 'POST', headers: { authorization: `Bearer ${access}` } });
    const form = await fetch(`${f.issuer}/api/v1/oauth/userinfo`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ access_token: access }) });
    for (const answer of [get, post, form]) {
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ email: f.user.email, email_verified: true });
    }
    // Without the profile scope there is no name.
    expect(Object.keys(await (await fetch(`${f.issuer}/api/v1/oauth/userinfo`, { headers: { authorization: `Bearer ${access}` } })).json()).sort()).toEqual(['email', 'email_verified', 'sub']);
    expect([get.headers.get('access-control-allow-origin'), get.headers.get('cross-origin-resource-policy')]).toEqual(['*', 'cross-origin']);
    // A browser asks once, in the preflight, what a request may carry.
    expect(get.headers.get('access-control-allow-headers')).toBeNull();
    const preflight = await fetch(`${f.issuer}/api/v1/oauth/userinfo`, { method: 'OPTIONS', headers: { origin: 'https://grafana.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    expect(preflight.status).toBe(204);
    expect([preflight.headers.get('access-control-allow-origin'), preflight.headers.get('access-control-allow-headers'), preflight.headers.get('access-control-allow-methods')]).toEqual(['*', 'Authorization, Content-Type', 'GET, POST']);
  });

  it("userinfo moves the service session's last activity, written in a batch, and never back", async () => {
    const issued = await exchange((await code()).body.code);
    const session = () => f.t.db.selectFrom('service_sessions').select(['id', 'last_active']).orderBy('issued_at', 'desc').executeTakeFirstOrThrow();
    const userinfo = async () => (await fetch(`${f.issuer}/api/v1/oauth/userinfo`, { headers: { authorization: `Bearer ${issued.body.access_token}` } })).status;
    const before = await session();
    f.t.advance(5_000);
    expect(await userinfo()).toBe(200);
    await f.t.app.services.lastActive.flush();
    expect(await session()).toEqual({ id: before.id, last_active: before.last_active + 5_000 });
    // A call made before a refresh, written after it: the refresh's later time stays.
    f.t.advance(5_000);
    expect(await userinfo()).toBe(200);
    f.t.advance(5_000);
    expect((await token({ grant_type: 'refresh_token', refresh_token: issued.body.refresh_token })).status).toBe(200);
    await f.t.app.services.lastActive.flush();
    expect(await session()).toEqual({ id: before.id, last_active: before.last_active + 15_000 });
  });
});

describe('service tokens, found by selector and checked by secret', () => {
  const userinfo = async (access: string) => (await fetch(`${f.issuer}/api/v1/oauth/userinfo`, { headers: { authorization: `Bearer ${access}` } })).status;

  it('a right selector with a wrong secret is refused, and spends nothing', async () => {
    const issued = await exchange((await code()).body.code);
    const forged = (real: string) => `${real.split('.')[0]}.${newOpaqueToken()}`;
    expect(await userinfo(forged(issued.body.access_token))).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: forged(issued.body.refresh_token) })).body.error).toBe('invalid_grant');
    // Not taken for a replay: the real tokens still work.
    expect(await userinfo(issued.body.access_token)).toBe(200);
    expect((await token({ grant_type: 'refresh_token', refresh_token: issued.body.refresh_token })).status).toBe(200);
  });

  it('tokens issued before selectors (rows keyed by the whole hash) keep working until used up', async () => {
    const issued = await exchange((await code()).body.code);
    const { service_session_id, expires_at } = await f.t.db.selectFrom('service_tokens').select(['service_session_id', 'expires_at']).where('kind', '=', 'refresh').executeTakeFirstOrThrow();
    const [access, refresh] = [newOpaqueToken(), newOpaqueToken()];
    const now = f.t.app.services.clock();
    const row = (plain: string, kind: 'access' | 'refresh') => ({ token_key: hashToken(plain), verifier_hash: null, kind, scope: 'openid email', service_session_id, created_at: now, expires_at, used_at: null });
    await f.t.db.insertInto('service_tokens').values([row(access, 'access'), row(refresh, 'refresh')]).execute();
    expect(await userinfo(access)).toBe(200);
    // Its hash, presented as a selector with any secret, is not the token.
    expect(await userinfo(`${hashToken(access)}.${newOpaqueToken()}`)).toBe(401);
    const rotated = await token({ grant_type: 'refresh_token', refresh_token: refresh });
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).toMatch(/^[^.]+\.[^.]+$/);
    // Used once, like any refresh token: a second use ends the session.
    expect((await token({ grant_type: 'refresh_token', refresh_token: refresh })).body.error).toBe('invalid_grant');
    expect(await userinfo(issued.body.access_token)).toBe(401);
  });
});
