import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { totpCode, totpStep } from '../../server/two-step/totp';
import { CALLBACK, oidcJson, startOidcFixture, tokenEndpoint, type OidcFixture } from '../support/oidc-fixture';

let f: OidcFixture;
beforeEach(async () => {
  f = await startOidcFixture();
});
afterEach(async () => f.close());

type Service = Awaited<ReturnType<OidcFixture['createService']>>;
const tokenForm = (service: Service, form: Record<string, string>) => tokenEndpoint(f.issuer, service, form);

/** Signs in to a service as the relying party would: a code, exchanged for tokens. */
async function signInTo(service: Service, firstPartyToken: string) {
  const code = (await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { client_id: service.clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid offline_access' }, firstPartyToken)).body.code as string;
  return (await tokenForm(service, { grant_type: 'authorization_code', code, redirect_uri: CALLBACK })) as { access_token: string; refresh_token: string; id_token: string };
}
const userinfo = (token: string) => oidcJson(f.issuer, 'GET', '/api/v1/oauth/userinfo', undefined, token);
const signedIn = async (token: string) => (await oidcJson(f.issuer, 'GET', '/api/v1/auth/services', undefined, token)).body.items as Array<Record<string, unknown>>;

describe('the services a person is signed in to', () => {
  it('lists them with their session counts, and signing out of one ends only that person\'s sessions there', async () => {
    const grafana = await f.createService({ name: 'Grafana' });
    const immich = await f.createService({ name: 'Immich', icon_url: 'https://immich.lan/icon.png' });
    const start = f.t.app.services.clock();
    const laptop = await signInTo(grafana, f.user.access);
    f.t.advance(1_000);
    const phone = await signInTo(grafana, f.user.access);
    f.t.advance(1_000);
    const photos = await signInTo(immich, f.user.access);
    const adminGrafana = await signInTo(grafana, f.adminToken);

    // The most recently used first, each with its latest session's last activity.
    const at = (ms: number) => new Date(ms).toISOString();
    expect((await signedIn(f.user.access)).map(({ name, sessions, icon_url, last_active }) => ({ name, sessions, icon_url, last_active }))).toEqual([
      { name: 'Immich', sessions: 1, icon_url: 'https://immich.lan/icon.png', last_active: at(start + 2_000) },
      { name: 'Grafana', sessions: 2, icon_url: null, last_active: at(start + 1_000) },
    ]);

    const out = await oidcJson(f.issuer, 'DELETE', `/api/v1/auth/services/${grafana.id}`, undefined, f.user.access);
    expect(out.status).toBe(200);
    for (const tokens of [laptop, phone]) {
      expect((await userinfo(tokens.access_token)).status, 'its access tokens stop at once').toBe(401);
      expect((await tokenForm(grafana, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).error).toBe('invalid_grant');
    }
    expect((await userinfo(photos.access_token)).status, 'other services stay signed in').toBe(200);
    expect((await userinfo(adminGrafana.access_token)).status, 'other people stay signed in').toBe(200);
    expect((await signedIn(f.user.access)).map((s) => s.name)).toEqual(['Immich']);
  });

  it('lists the most recently used first, and services used at the same time by name', async () => {
    // Five, so that the order they come out of the database in (by random id) is not theirs by chance.
    const signedInTo = async (name: string) => {
      const service = await f.createService({ name });
      return { service, tokens: await signInTo(service, f.user.access) };
    };
    await signedInTo('Grafana');
    const zulip = await signedInTo('Zulip');
    for (const name of ['Audiobookshelf', 'Nextcloud', 'Immich']) await signedInTo(name);
    expect((await signedIn(f.user.access)).map((s) => s.name)).toEqual(['Audiobookshelf', 'Grafana', 'Immich', 'Nextcloud', 'Zulip']);
    f.t.advance(1_000);
    expect(await tokenForm(zulip.service, { grant_type: 'refresh_token', refresh_token: zulip.tokens.refresh_token })).toHaveProperty('access_token');
    expect((await signedIn(f.user.access)).map((s) => s.name)).toEqual(['Zulip', 'Audiobookshelf', 'Grafana', 'Immich', 'Nextcloud']);
  });

  it('answers 404 for a service the person is not signed in to, and 401 without a token, changing nothing', async () => {
    const grafana = await f.createService({ name: 'Grafana' });
    const adminGrafana = await signInTo(grafana, f.adminToken);
    const notSignedIn = await oidcJson(f.issuer, 'DELETE', `/api/v1/auth/services/${grafana.id}`, undefined, f.user.access);
    expect({ status: notSignedIn.status, body: notSignedIn.body }).toEqual({ status: 404, body: { error: 'signed-in service not found' } });
    expect((await oidcJson(f.issuer, 'DELETE', '/api/v1/auth/services/no-such-service', undefined, f.user.access)).status).toBe(404);
    expect((await oidcJson(f.issuer, 'DELETE', `/api/v1/auth/services/${grafana.id}`)).status).toBe(401);
    expect((await oidcJson(f.issuer, 'GET', '/api/v1/auth/services')).status).toBe(401);
    expect(await signedIn(f.user.access)).toEqual([]);
    expect((await userinfo(adminGrafana.access_token)).status).toBe(200);
  });

  it('remember an approval until the person withdraws it, signed in there or not; signing out withdraws it, even for prompt=none', async () => {
    const grafana = await f.createService({ name: 'Grafana' });
    const request = { client_id: grafana.clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid offline_access', state: 's' };
    const ifApproved = (extra: Record<string, unknown>, token = f.user.access) => oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { ...request, ...extra, if_approved: true }, token);
    // No code, and nothing sent back to the service: the consent screen asks.
    const refused = async (answer: Awaited<ReturnType<typeof ifApproved>>) => expect({ status: answer.status, body: answer.body }).toEqual({ status: 204, body: undefined });

    await refused(await ifApproved({}));
    expect(await signedIn(f.user.access)).toEqual([]);
    // Allowed on the screen: approved, though the service has not signed in yet.
    expect((await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', request, f.user.access)).status).toBe(200);
    expect(await signedIn(f.user.access)).toEqual([{ service_id: grafana.id, name: 'Grafana', icon_url: null, sessions: 0, last_active: null, approved_at: expect.any(String) }]);
    const remembered = await ifApproved({});
    expect(remembered.status).toBe(200);
    expect(new URL(remembered.body.redirect_to).searchParams.get('code')).toBe(remembered.body.code);

    // Signed in there, then signed out by the service itself: the approval outlives the session.
    const tokens = await signInTo(grafana, f.user.access);
    expect((await signedIn(f.user.access)).map(({ sessions, last_active }) => ({ sessions, active: last_active !== null }))).toEqual([{ sessions: 1, active: true }]);
    expect((await oidcJson(f.issuer, 'POST', '/api/v1/oauth/end-session', { id_token_hint: tokens.id_token })).status).toBe(200);
    expect((await signedIn(f.user.access)).map(({ sessions }) => sessions)).toEqual([0]);
    expect((await ifApproved({})).status).toBe(200);
    // Asking for fewer scopes goes straight back, and does not narrow what was approved.
    expect((await ifApproved({ scope: 'openid' })).status).toBe(200);
    expect((await ifApproved({})).status).toBe(200);
    await refused(await ifApproved({ scope: 'openid email' }));
    await refused(await ifApproved({ prompt: 'consent' }));
    await refused(await ifApproved({}, f.adminToken));

    // Withdrawn from Personal Info: asked again, silently too; and nothing left to withdraw.
    expect((await oidcJson(f.issuer, 'DELETE', `/api/v1/auth/services/${grafana.id}`, undefined, f.user.access)).status).toBe(200);
    await refused(await ifApproved({}));
    const silent = await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { ...request, prompt: 'none' }, f.user.access);
    expect(new URL(silent.body.redirect_to).searchParams.get('error')).toBe('consent_required');
    expect(await signedIn(f.user.access)).toEqual([]);
    expect((await oidcJson(f.issuer, 'DELETE', `/api/v1/auth/services/${grafana.id}`, undefined, f.user.access)).status).toBe(404);
  });

  it('a service open only to some groups lets in their members; anyone else is told on the screen, or the service with prompt=none', async () => {
    const immich = await f.createService({ name: 'Immich', allowed_groups: ['family'] });
    const request = { client_id: immich.clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', state: 's' };
    const code = (extra: Record<string, unknown> = {}) => oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { ...request, ...extra }, f.user.access);

    const refused = await code();
    expect([refused.status, refused.body.error, refused.body.redirect_to]).toEqual([403, 'access_denied', undefined]);
    expect(refused.body.error_description).toBe('Immich is open only to some groups, and your account is in none of them; an administrator can add you');
    expect((await code({ if_approved: true })).status, 'even when asking silently from the screen').toBe(403);
    const silent = new URL((await code({ prompt: 'none' })).body.redirect_to);
    expect([silent.searchParams.get('error'), silent.searchParams.get('state')]).toEqual(['access_denied', 's']);
    expect(await f.t.db.selectFrom('oauth_codes').selectAll().execute(), 'no code issued').toEqual([]);

    const userId = (await oidcJson(f.issuer, 'GET', '/api/v1/auth/profile', undefined, f.user.access)).body.id as string;
    const person = (await oidcJson(f.issuer, 'GET', `/api/v1/admin/users/${userId}`, undefined, f.adminToken)).body;
    await oidcJson(f.issuer, 'PUT', `/api/v1/admin/users/${userId}`, { full_name: person.full_name, email: person.email, phone_number: null, is_admin: false, groups: ['friends', 'family'] }, f.adminToken);
    expect((await code()).status).toBe(200);
  });

  it('a service that asks for two-step sign-in takes only sign-ins made with a code, and says what to do', async () => {
    const vault = await f.createService({ name: 'Vault', require_two_step: true });
    const request = { client_id: vault.clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', state: 's' };
    const code = (token: string, extra: Record<string, unknown> = {}) => oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { ...request, ...extra }, token);
    const description = async (token: string) => {
      const refused = await code(token);
      expect([refused.status, refused.body.error]).toEqual([403, 'access_denied']);
      return refused.body.error_description as string;
    };

    expect(await description(f.user.access)).toBe('Vault asks for two-step sign-in: turn it on under Personal Info, then sign out and sign in again');
    const silent = new URL((await code(f.user.access, { prompt: 'none' })).body.redirect_to);
    expect([silent.searchParams.get('error'), silent.searchParams.get('error_description'), silent.searchParams.get('state')]).toEqual(['login_required', 'The service takes only two-step sign-ins', 's']);

    const step = totpStep(f.t.app.services.clock());
    const { secret } = (await oidcJson(f.issuer, 'POST', '/api/v1/auth/two-step/setup', {}, f.user.access)).body;
    await oidcJson(f.issuer, 'PUT', '/api/v1/auth/two-step', { secret, code: totpCode(secret, step), current_password: f.user.password }, f.user.access);
    expect(await description(f.user.access), 'on now, but this session was signed in with the password alone').toBe("Vault asks for two-step sign-in: sign out, then sign in again with your authenticator app's code");
    expect(await f.t.db.selectFrom('oauth_codes').selectAll().execute(), 'no code issued').toEqual([]);

    const login = await oidcJson(f.issuer, 'POST', '/api/v1/auth/login', { email: f.user.email, password: f.user.password, code: totpCode(secret, step + 1) });
    expect((await code(login.body.access)).status).toBe(200);
    expect((await oidcJson(f.issuer, 'GET', `/api/v1/admin/api-services/${vault.id}`, undefined, f.adminToken)).body.require_two_step).toBe(true);
  });
});

describe('a sign-in revoked from elsewhere', () => {
  /** A second device of the user's: its own sign-in, and Grafana signed in to from it. */
  async function laptopSignedIn(grafana: Service) {
    const laptop = (await oidcJson(f.issuer, 'POST', '/api/v1/auth/login', { email: f.user.email, password: f.user.password })).body as { access: string; refresh: string };
    const own = (await oidcJson(f.issuer, 'GET', '/api/v1/auth/sessions', undefined, laptop.access)).body.items as Array<{ id: string; current: boolean }>;
    return { ...laptop, sessionId: own.find((s) => s.current)!.id, grafana: await signInTo(grafana, laptop.access) };
  }
  const stillSignedIn = async (service: Service, tokens: { access_token: string; refresh_token: string }) =>
    (await userinfo(tokens.access_token)).status === 200 && typeof (await tokenForm(service, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).access_token === 'string';

  it('ends the services signed in to from it: revoked by an administrator, or signed out by the person from another device', async () => {
    const grafana = await f.createService({ name: 'Grafana' });
    const here = await signInTo(grafana, f.user.access);
    const revoke = [
      (id: string) => oidcJson(f.issuer, 'PATCH', `/api/v1/admin/user-sessions/revoke/${id}`, {}, f.adminToken),
      (id: string) => oidcJson(f.issuer, 'DELETE', `/api/v1/auth/sessions/${id}`, undefined, f.user.access),
      () => oidcJson(f.issuer, 'DELETE', '/api/v1/auth/sessions', undefined, f.user.access),
    ];
    for (const [i, end] of revoke.entries()) {
      const laptop = await laptopSignedIn(grafana);
      expect((await end(laptop.sessionId)).status).toBe(200);
      expect((await userinfo(laptop.grafana.access_token)).status, `way ${i}: its service's access token is refused at once`).toBe(401);
      expect((await tokenForm(grafana, { grant_type: 'refresh_token', refresh_token: laptop.grafana.refresh_token })).error, `way ${i}`).toBe('invalid_grant');
    }
    // What this device signed in to is its own: it stays.
    const [mine] = (await oidcJson(f.issuer, 'GET', '/api/v1/auth/services', undefined, f.user.access)).body.items;
    expect(mine).toMatchObject({ name: 'Grafana', sessions: 1 });
    expect(await stillSignedIn(grafana, here)).toBe(true);
  });

  it('but a person signing out on the device itself leaves the services they signed in to there', async () => {
    const grafana = await f.createService({ name: 'Grafana' });
    const laptop = await laptopSignedIn(grafana);
    expect((await fetch(`${f.issuer}/api/v1/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${laptop.refresh}` } })).status).toBe(200);
    expect((await oidcJson(f.issuer, 'GET', '/api/v1/auth/profile', undefined, laptop.access)).status).toBe(401);
    expect(await stillSignedIn(grafana, laptop.grafana)).toBe(true);
  });
});

describe("an email address changed by an administrator", () => {
  it('signs the person out of every service: it is no longer proved, and each asks again once it is', async () => {
    const grafana = await f.createService({ name: 'Grafana' });
    const tokens = await signInTo(grafana, f.user.access);
    const [olivia] = (await oidcJson(f.issuer, 'GET', '/api/v1/admin/users?search=olivia', undefined, f.adminToken)).body.items;
    const edited = await oidcJson(f.issuer, 'PUT', `/api/v1/admin/users/${olivia.id}`, { full_name: olivia.full_name, email: 'olivia.new@oidc.test', is_admin: false }, f.adminToken);
    expect(edited.body).toMatchObject({ email: 'olivia.new@oidc.test', email_verified: false });
    expect((await userinfo(tokens.access_token)).status).toBe(401);
    expect((await tokenForm(grafana, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).error).toBe('invalid_grant');
    // A name alone changes nothing of that.
    const again = await signInTo(grafana, f.adminToken);
    const [admin] = (await oidcJson(f.issuer, 'GET', '/api/v1/admin/users?search=admin%40oidc', undefined, f.adminToken)).body.items;
    await oidcJson(f.issuer, 'PUT', `/api/v1/admin/users/${admin.id}`, { full_name: 'Admin Renamed', email: admin.email, is_admin: true }, f.adminToken);
    expect((await userinfo(again.access_token)).status).toBe(200);
  });
});

describe('an administrator signing someone out everywhere', () => {
  it('ends every device and every service of theirs, leaves them free to sign in, and refuses their own account', async () => {
    const grafana = await f.createService({ name: 'Grafana' });
    const phone = (await oidcJson(f.issuer, 'POST', '/api/v1/auth/login', { email: f.user.email, password: f.user.password })).body as { access: string };
    const tokens = await signInTo(grafana, f.user.access);
    const theirs = await signInTo(grafana, f.adminToken);
    const [olivia] = (await oidcJson(f.issuer, 'GET', '/api/v1/admin/users?search=olivia', undefined, f.adminToken)).body.items;
    const signOut = (id: string, token = f.adminToken) => oidcJson(f.issuer, 'POST', `/api/v1/admin/users/${id}/sign-out`, {}, token);

    expect((await signOut(olivia.id, f.user.access)).status, 'for administrators only').toBe(403);
    const devices = ((await oidcJson(f.issuer, 'GET', '/api/v1/admin/user-sessions?page=1&size=100&search=olivia', undefined, f.adminToken)).body.items as Array<{ is_active: boolean }>).filter((s) => s.is_active).length;
    expect(devices).toBeGreaterThanOrEqual(2); // the fixture's sign-ins and the phone
    const done = await signOut(olivia.id);
    expect([done.status, done.body]).toEqual([200, { signed_out: devices }]);
    for (const device of [f.user.access, phone.access]) expect((await oidcJson(f.issuer, 'GET', '/api/v1/auth/profile', undefined, device)).status).toBe(401);
    expect((await userinfo(tokens.access_token)).status).toBe(401);
    expect((await tokenForm(grafana, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).error).toBe('invalid_grant');
    expect((await oidcJson(f.issuer, 'POST', '/api/v1/auth/login', { email: f.user.email, password: f.user.password })).status, 'free to sign in again').toBe(200);
    expect((await userinfo(theirs.access_token)).status, 'nobody else is touched').toBe(200);

    const [admin] = (await oidcJson(f.issuer, 'GET', '/api/v1/admin/users?search=admin%40oidc', undefined, f.adminToken)).body.items;
    const own = await signOut(admin.id);
    expect([own.status, own.body.error]).toEqual([409, 'Sign your own other devices out from Personal Info, which keeps this one signed in']);
    expect((await signOut('no-such-user')).status).toBe(404);
    const events = (await oidcJson(f.issuer, 'GET', `/api/v1/admin/audit-log?user_id=${olivia.id}`, undefined, f.adminToken)).body.items as Array<{ kind: string }>;
    expect(events.filter((event) => event.kind === 'user-session-revoked')).toEqual([expect.objectContaining({ detail: `everywhere:${devices}`, actor: expect.objectContaining({ full_name: 'Admin' }) })]);
  });
});

describe('a service disabled by an administrator', () => {
  it('has its sessions listed as not active while it is off, and as active again once it is on', async () => {
    const grafana = await f.createService({ name: 'Grafana' });
    const tokens = await signInTo(grafana, f.user.access);
    const listed = async () => ((await oidcJson(f.issuer, 'GET', '/api/v1/admin/service-sessions?page=1&size=10', undefined, f.adminToken)).body.items as Array<{ is_active: boolean; revoked_at: string | null }>).map(({ is_active, revoked_at }) => ({ is_active, revoked_at }));
    const toggle = (is_active: boolean) => oidcJson(f.issuer, 'PATCH', `/api/v1/admin/api-services/toggle/${grafana.id}`, { is_active }, f.adminToken);
    expect(await listed()).toEqual([{ is_active: true, revoked_at: null }]);
    await toggle(false);
    expect((await userinfo(tokens.access_token)).status).toBe(401);
    expect(await listed()).toEqual([{ is_active: false, revoked_at: null }]);
    await toggle(true);
    expect(await listed()).toEqual([{ is_active: true, revoked_at: null }]);
  });
});

describe('a service deleted by an administrator', () => {
  it('signs everyone out of it, authenticates it no more, leaves nothing of it, and keeps its events under its name', async () => {
    const grafana = await f.createService({ name: 'Grafana' });
    const immich = await f.createService({ name: 'Immich' });
    const dashboards = await signInTo(grafana, f.user.access);
    const photos = await signInTo(immich, f.user.access);
    const remove = (id: string, token = f.adminToken) => oidcJson(f.issuer, 'DELETE', `/api/v1/admin/api-services/${id}`, undefined, token);

    expect((await remove(grafana.id, f.user.access)).status, 'for administrators only').toBe(403);
    expect((await userinfo(dashboards.access_token)).status).toBe(200);
    expect((await remove(grafana.id)).status).toBe(200);
    expect((await userinfo(dashboards.access_token)).status).toBe(401);
    expect((await tokenForm(grafana, { grant_type: 'refresh_token', refresh_token: dashboards.refresh_token })).error).toBe('invalid_client');
    expect((await oidcJson(f.issuer, 'GET', `/api/v1/admin/api-services/${grafana.id}`, undefined, f.adminToken)).status).toBe(404);
    expect((await oidcJson(f.issuer, 'GET', `/api/v1/api-services/client/${grafana.clientId}`)).status).toBe(404);
    for (const table of ['service_sessions', 'consents', 'oauth_codes'] as const) {
      expect(await f.t.db.selectFrom(table).select('service_id').where('service_id', '=', grafana.id).execute(), table).toEqual([]);
    }
    // Nobody else's service is touched.
    expect((await signedIn(f.user.access)).map((service) => service.name)).toEqual(['Immich']);
    expect((await userinfo(photos.access_token)).status).toBe(200);
    // Gone: deleting it again, or what never was, is 404.
    expect((await remove(grafana.id)).status).toBe(404);
    expect((await remove('no-such-service')).status).toBe(404);

    const [deleted] = (await oidcJson(f.issuer, 'GET', '/api/v1/admin/audit-log?group=services', undefined, f.adminToken)).body.items;
    expect(deleted).toMatchObject({ kind: 'service-deleted', service_id: grafana.id, service: null, detail: 'Grafana' });
  });
});
