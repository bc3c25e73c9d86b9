import { decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { PUBLISH_AHEAD_MS } from '../../server/keys/signing-keys';
import { CALLBACK, eachTestWithAService, oidcJson, type FixtureService, type OidcFixture } from '../support/oidc-fixture';

// Signing out at a service's request (OpenID Connect RP-Initiated Logout), each pinned by its section.

let f: OidcFixture;
let service: FixtureService;
eachTestWithAService((fixture, created) => ([f, service] = [fixture, created]));

/** The sign-out page's call for an ID token sent as id_token_hint, to go back to CALLBACK with state "s". */
const endSession = (idToken: string | undefined) => oidcJson(f.issuer, 'POST', '/api/v1/oauth/end-session', { id_token_hint: idToken, post_logout_redirect_uri: CALLBACK, state: 's' });

describe('the end-session endpoint takes a form POST (RP-Initiated Logout §2)', () => {
  it('becomes the same request as a GET, with the known parameters only', async () => {
    const post = (body?: URLSearchParams) => fetch(`${f.issuer}/signout`, { method: 'POST', redirect: 'manual', ...(body ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body } : {}) });
    const form = new URLSearchParams({ id_token_hint: 'a.b.c', post_logout_redirect_uri: CALLBACK, state: 'bye', client_id: service.clientId, ui_locales: 'en' });
    const response = await post(form);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/signout?id_token_hint=a.b.c&post_logout_redirect_uri=${encodeURIComponent(CALLBACK)}&state=bye&client_id=${service.clientId}`);
    const empty = await post();
    expect([empty.status, empty.headers.get('location')]).toEqual([303, '/signout']);
  });
});

describe('an ID token names whom to sign out only while its session is open (RP-Initiated Logout §2)', () => {
  it('an ended or expired session names no one: the page asks instead', async () => {
    const config = await f.relyingParty(service);
    const { tokens } = await f.signInToService(config);
    expect((await endSession(tokens.id_token!)).body).toEqual({ redirect_to: `${CALLBACK}?state=s`, subject: tokens.claims()!.sub });
    // The same ID token again (it leaked through a URL or a log): still back to the service, naming no one.
    expect((await endSession(tokens.id_token!)).body).toEqual({ redirect_to: `${CALLBACK}?state=s`, subject: null });

    // Without refresh tokens, the session lasts as long as its access token: open until its last
    // millisecond, ended from the next.
    const gitea = await f.relyingParty(await f.createService({ name: 'Gitea', grant_types: [] }));
    const [lastMillisecond, ended] = [(await f.signInToService(gitea, { scope: 'openid' })).tokens, (await f.signInToService(gitea, { scope: 'openid' })).tokens];
    f.t.advance(lastMillisecond.expires_in! * 1000 - 1);
    expect((await endSession(lastMillisecond.id_token!)).body).toEqual({ redirect_to: `${CALLBACK}?state=s`, subject: lastMillisecond.claims()!.sub });
    f.t.advance(1);
    expect((await endSession(ended.id_token!)).body).toEqual({ redirect_to: `${CALLBACK}?state=s`, subject: null });
  });

  it('an ID token whose session went with its deleted account names no one, and the browser still goes back', async () => {
    const { tokens } = await f.signInToService(await f.relyingParty(service));
    expect((await oidcJson(f.issuer, 'DELETE', `/api/v1/admin/users/${tokens.claims()!.sub}`, undefined, f.adminToken)).status).toBe(200);
    const answer = await endSession(tokens.id_token);
    expect([answer.status, answer.body]).toEqual([200, { redirect_to: `${CALLBACK}?state=s`, subject: null }]);
  });
});

describe('an ID token signed by a key rotated out since (RP-Initiated Logout §2)', () => {
  it('still names whom to sign out while its session is open, and ends that session', async () => {
    const { tokens } = await f.signInToService(await f.relyingParty(service));
    // Rotated, and the old key's published time over: no longer in the JWKS.
    const keys = f.t.app.services.keys;
    await keys.rotate('RS256', 60);
    f.t.advance(PUBLISH_AHEAD_MS + 61_000 + 61_000);
    const published = (await oidcJson(f.issuer, 'GET', '/.well-known/jwks.json')).body.keys as Array<{ kid: string }>;
    expect(published.map((key) => key.kid)).not.toContain(decodeProtectedHeader(tokens.id_token!).kid);
    expect((await endSession(tokens.id_token!)).body).toEqual({ redirect_to: `${CALLBACK}?state=s`, subject: tokens.claims()!.sub });
    expect((await oidcJson(f.issuer, 'GET', '/api/v1/oauth/userinfo', undefined, tokens.access_token)).status, 'the service session ended').toBe(401);
  });
});

describe('a disabled service (RP-Initiated Logout §3)', () => {
  it('has its session ended, and no one is sent back to it', async () => {
    const signedIn = await f.signInToService(await f.relyingParty(service), { scope: 'openid email' });
    const sessions = async () => (await oidcJson(f.issuer, 'GET', '/api/v1/admin/service-sessions?page=1&size=10', undefined, f.adminToken)).body.items as Array<{ is_active: boolean }>;
    expect((await oidcJson(f.issuer, 'PATCH', `/api/v1/admin/api-services/toggle/${service.id}`, {}, f.adminToken)).status).toBe(200);
    expect((await endSession(signedIn.tokens.id_token)).body).toMatchObject({ redirect_to: null, subject: expect.any(String) });
    expect((await sessions()).map((session) => session.is_active)).toEqual([false]);
    // Enabled again, the same request returns to it.
    await oidcJson(f.issuer, 'PATCH', `/api/v1/admin/api-services/toggle/${service.id}`, {}, f.adminToken);
    expect((await endSession(signedIn.tokens.id_token)).body.redirect_to).toBe(`${CALLBACK}?state=s`);
  });
});
