import * as client from 'openid-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CALLBACK, oidcJson, startOidcFixture, type OidcFixture } from '../support/oidc-fixture';

let f: OidcFixture;
beforeEach(async () => {
  f = await startOidcFixture();
});
afterEach(async () => f.close());

const admin = (method: string, url: string, body?: unknown) => oidcJson(f.issuer, method, url, body, f.adminToken);
const form = async (url: string, fields: Record<string, string>) => {
  const response = await fetch(`${f.issuer}${url}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  return { status: response.status, body: await response.json().catch(() => undefined) };
};

/** The authorization request's parameters, as the consent screen sends them on. */
async function request(clientId: string, extra: Record<string, string> = {}) {
  const verifier = client.randomPKCECodeVerifier();
  const params = { client_id: clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid email offline_access', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', ...extra };
  return { verifier, params };
}

describe('public clients (mobile, desktop and single-page apps)', () => {
  it('sign in with PKCE and no secret through a real relying party, refresh, and revoke', async () => {
    const service = await f.createService({ public_client: true });
    expect(service.clientSecret).toBeNull();
    const config = await client.discovery(new URL(f.issuer), service.clientId, undefined, client.None(), { execute: [client.allowInsecureRequests] });
    expect(config.serverMetadata().token_endpoint_auth_methods_supported).toContain('none');

    const { verifier, params } = await request(service.clientId);
    const answer = await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', params, f.user.access);
    const tokens = await client.authorizationCodeGrant(config, new URL(answer.body.redirect_to), { pkceCodeVerifier: verifier, idTokenExpected: true });
    const sub = tokens.claims()!.sub;
    expect(tokens.claims()).toMatchObject({ aud: service.clientId, email: f.user.email });

    // Its refresh tokens rotate, so a stolen one is caught the next time either copy is used.
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant', error_description: 'The refresh token has already been used' });
    await expect(client.fetchUserInfo(config, refreshed.access_token, sub)).rejects.toThrow();

    const again = await request(service.clientId);
    const second = await client.authorizationCodeGrant(config, new URL((await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', again.params, f.user.access)).body.redirect_to), { pkceCodeVerifier: again.verifier });
    expect((await client.fetchUserInfo(config, second.access_token, sub)).email).toBe(f.user.email);
    await client.tokenRevocation(config, second.refresh_token!);
    await expect(client.fetchUserInfo(config, second.access_token, sub)).rejects.toThrow();
  });

  it('are refused without PKCE, with a secret, and at introspection', async () => {
    const service = await f.createService({ public_client: true });
    const { params } = await request(service.clientId, { state: 'st' });
    const { code_challenge: _challenge, code_challenge_method: _method, ...withoutPkce } = params;
    const bare = await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', withoutPkce, f.user.access);
    const back = new URL(bare.body.redirect_to).searchParams;
    expect([back.get('error'), back.get('error_description'), back.get('state')]).toEqual(['invalid_request', 'A public client must use PKCE: code_challenge is missing', 'st']);

    const code = (await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', params, f.user.access)).body.code as string;
    const exchange = { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_id: service.clientId };
    expect(await form('/api/v1/oauth/token', { ...exchange, client_secret: 'guessed' })).toEqual({ status: 401, body: { error: 'invalid_client', error_description: 'This is a public client: it has no secret to send' } });
    // Refused client authentication spends nothing: the code is still good, though not without its verifier.
    expect((await form('/api/v1/oauth/token', exchange)).body).toEqual({ error: 'invalid_grant', error_description: 'code_verifier is missing or malformed' });

    expect(await form('/api/v1/oauth/introspect', { token: 'anything', client_id: service.clientId })).toEqual({ status: 401, body: { error: 'invalid_client', error_description: 'A public client may not introspect tokens' } });
    // A confidential service still needs its secret.
    const confidential = await f.createService({ name: 'Immich' });
    expect((await form('/api/v1/oauth/token', { ...exchange, client_id: confidential.clientId })).body).toEqual({ error: 'invalid_client', error_description: 'Client authentication is required' });
  });

  it('are sent back to a loopback address on whatever port the app listens on (RFC 8252 §7.3), the code then tied to that port', async () => {
    const tool = await f.createService({ name: 'kubelogin', public_client: true, redirect_uris: ['http://127.0.0.1/callback'] });
    const redirectUri = 'http://127.0.0.1:53127/callback';
    const { verifier, params } = await request(tool.clientId, { redirect_uri: redirectUri });
    const answer = await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', params, f.user.access);
    expect(new URL(answer.body.redirect_to).origin).toBe('http://127.0.0.1:53127');
    const exchange = { grant_type: 'authorization_code', code: answer.body.code, client_id: tool.clientId, code_verifier: verifier };
    expect((await form('/api/v1/oauth/token', { ...exchange, redirect_uri: 'http://127.0.0.1:53128/callback' })).body.error).toBe('invalid_grant');
    const { params: again, verifier: second } = await request(tool.clientId, { redirect_uri: redirectUri });
    const code = (await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', again, f.user.access)).body.code;
    expect((await form('/api/v1/oauth/token', { ...exchange, code, code_verifier: second, redirect_uri: redirectUri })).status).toBe(200);
    // localhost is a name, not the loopback address: its port is not left open.
    expect((await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', (await request(tool.clientId, { redirect_uri: 'http://localhost:53127/callback' })).params, f.user.access)).status).toBe(400);
    // A port past 65535 is no address: refused as unregistered, before anything is written, and not a 500.
    for (const port of [65536, 99999]) {
      const { params: beyond } = await request(tool.clientId, { redirect_uri: `http://127.0.0.1:${port}/callback` });
      expect((await oidcJson(f.issuer, 'GET', `/api/v1/oauth/authorize?${new URLSearchParams(beyond)}`, undefined, f.user.access)).body).toMatchObject({ error: 'invalid_request', error_description: 'redirect_uri is not registered for this service' });
      expect((await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', beyond, f.user.access)).body).toMatchObject({ error: 'invalid_request', error_description: 'redirect_uri is not registered for this service' });
    }
    expect((await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', (await request(tool.clientId, { redirect_uri: 'http://127.0.0.1:65535/callback' })).params, f.user.access)).status).toBe(200);
    // A confidential service is no native app (RFC 9700 §4.1.3): its loopback URI is matched whole, port and all.
    const server = await f.createService({ name: 'Local service', redirect_uris: ['http://127.0.0.1/callback'] });
    expect((await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', (await request(server.clientId, { redirect_uri: redirectUri })).params, f.user.access)).body).toMatchObject({ error: 'invalid_request', error_description: 'redirect_uri is not registered for this service' });
    expect((await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', (await request(server.clientId, { redirect_uri: 'http://127.0.0.1/callback' })).params, f.user.access)).status).toBe(200);
  });

  it('ask the person every time when sent back to loopback or an app scheme (RFC 8252 §8.6), but not to https', async () => {
    /** Approves a request and has the service exchange its code; then asks again as the consent screen does, and silently. */
    const approvedOnceThenAsked = async (clientId: string, redirectUri: string) => {
      const { verifier, params } = await request(clientId, { redirect_uri: redirectUri });
      const { code } = (await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', params, f.user.access)).body;
      expect((await form('/api/v1/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier })).status).toBe(200);
      const screen = await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { ...params, if_approved: true }, f.user.access);
      const silent = await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { ...params, prompt: 'none' }, f.user.access);
      return { screen: screen.status, silent: new URL(silent.body.redirect_to).searchParams.get('error') ?? 'code' };
    };
    // Another app could be listening on that port: the consent screen asks again, and a silent request is told so.
    const native = await f.createService({ public_client: true });
    expect(await approvedOnceThenAsked(native.clientId, CALLBACK)).toEqual({ screen: 204, silent: 'consent_required' });
    const web = await f.createService({ name: 'Photos', public_client: true, redirect_uris: ['https://photos.home.lan/cb'] });
    expect(await approvedOnceThenAsked(web.clientId, 'https://photos.home.lan/cb')).toEqual({ screen: 200, silent: 'code' });

    // An approval given on loopback is not kept: it stands neither for a request that can prove
    // who sent it (https) nor on Personal Info, which lists the session only.
    const both = await f.createService({ name: 'Notes', public_client: true, redirect_uris: [CALLBACK, 'https://notes.home.lan/cb'] });
    await approvedOnceThenAsked(both.clientId, CALLBACK);
    const { params } = await request(both.clientId, { redirect_uri: 'https://notes.home.lan/cb' });
    expect((await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { ...params, if_approved: true }, f.user.access)).status).toBe(204);
    const listed = (await oidcJson(f.issuer, 'GET', '/api/v1/auth/services', undefined, f.user.access)).body as { items: Array<{ name: string; approved_at: string | null }> };
    expect(listed.items.find((item) => item.name === 'Notes')).toMatchObject({ approved_at: null });
    // Signing out of it there ends its session, though there is no approval to withdraw with it.
    expect((await oidcJson(f.issuer, 'DELETE', `/api/v1/auth/services/${both.id}`, undefined, f.user.access)).status).toBe(200);
    const after = (await oidcJson(f.issuer, 'GET', '/api/v1/auth/services', undefined, f.user.access)).body as typeof listed;
    expect(after.items.map((item) => item.name)).not.toContain('Notes');
  });
});

describe('making a service public or confidential (admin)', () => {
  const edit = { name: 'Grafana', description: 'Dashboards', redirect_uris: [CALLBACK], scopes: ['openid', 'email', 'profile', 'offline_access'] };

  it('keeps the secret, and the sessions given with it, through edits that leave the service confidential', async () => {
    const service = await f.createService();
    const config = await f.relyingParty(service);
    const { tokens } = await f.signInToService(config);
    const renamed = { ...edit, name: 'Grafana at home', post_logout_redirect_uris: ['http://127.0.0.1:9/signed-out'] };
    expect((await admin('PUT', `/api/v1/admin/api-services/${service.id}`, renamed)).body).toMatchObject({ name: 'Grafana at home', post_logout_redirect_uris: ['http://127.0.0.1:9/signed-out'] });
    expect((await admin('PUT', `/api/v1/admin/api-services/${service.id}`, { ...renamed, public_client: false })).body.public_client).toBe(false);
    // Refreshed with the secret it was given when created.
    expect((await client.refreshTokenGrant(config, tokens.refresh_token!)).access_token).toEqual(expect.any(String));
  });

  it('logs an edit that turns a public client on and makes it confidential as both', async () => {
    const service = await f.createService({ public_client: true, is_active: false });
    expect((await admin('PUT', `/api/v1/admin/api-services/${service.id}`, { ...edit, is_active: true, public_client: false })).status).toBe(200);
    const events = await f.t.db.selectFrom('audit_events').select(['kind', 'detail']).where('service_id', '=', service.id).orderBy('id').execute();
    expect(events).toEqual([
      { kind: 'service-created', detail: 'Grafana' },
      { kind: 'service-turned-on', detail: 'Grafana' },
      { kind: 'service-changed', detail: 'Grafana\nmade-confidential' },
    ]);
  });

  it('gives a public client no secret to see or regenerate, and keeps the choice when an edit leaves it out', async () => {
    const created = await f.createService({ public_client: true });
    expect((await admin('GET', `/api/v1/admin/api-services/${created.id}`)).body.public_client).toBe(true);
    const renew = await admin('POST', `/api/v1/admin/api-services/${created.id}/credentials`, {});
    expect([renew.status, renew.body.error]).toEqual([409, 'A public client has no secret; make it confidential first']);
    expect((await admin('PUT', `/api/v1/admin/api-services/${created.id}`, edit)).body.public_client).toBe(true);
    const refused = await admin('PUT', `/api/v1/admin/api-services/${created.id}`, { ...edit, public_client: 'yes' });
    expect([refused.status, refused.body.error]).toEqual([400, 'public_client: must be true or false']);
    expect((await admin('GET', `/api/v1/admin/api-services/${created.id}`)).body.public_client).toBe(true);
  });

  it('ends the old secret, and the sessions given with it, when a service becomes public, so making it confidential again needs new credentials', async () => {
    const service = await f.createService();
    const authenticates = async (secret: string) => {
      const answer = await form('/api/v1/oauth/token', { grant_type: 'authorization_code', code: 'no-such-code', client_id: service.clientId, client_secret: secret });
      return answer.body.error === 'invalid_grant'; // past client authentication
    };
    expect(await authenticates(service.clientSecret!)).toBe(true);
    const { tokens } = await f.signInToService(await f.relyingParty(service));
    expect((await admin('PUT', `/api/v1/admin/api-services/${service.id}`, { ...edit, public_client: true })).body.public_client).toBe(true);
    // A refresh token given with the secret, leaked from the service's backend, needs none now: it has ended.
    expect((await form('/api/v1/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: service.clientId })).body.error).toBe('invalid_grant');
    expect((await admin('PUT', `/api/v1/admin/api-services/${service.id}`, { ...edit, public_client: false })).body.public_client).toBe(false);
    expect(await authenticates(service.clientSecret!)).toBe(false);
    const renewed = (await admin('POST', `/api/v1/admin/api-services/${service.id}/credentials`, {})).body.credentials;
    expect(await authenticates(renewed.client_secret)).toBe(true);
  });
});
