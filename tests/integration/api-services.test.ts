import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiServicesRepository } from '../../server/api-services/api-services-repository';
import { holdTheNextCallAfterItsAnswer } from '../support/hold-a-call';
import { serviceForm } from '../support/service-form';
import { call, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let admin: Awaited<ReturnType<typeof registerAndLogin>>;
let regular: Awaited<ReturnType<typeof registerAndLogin>>;
beforeEach(async () => {
  t = await startTestApp();
  admin = await registerAndLogin(t.app); // the first account is the administrator
  regular = await registerAndLogin(t.app);
});
afterEach(async () => t.close());

/** The administrator's call. */
const api = (method: string, url: string, body?: unknown) => call(t.app, method as 'GET', url, { token: admin.access, ...(body ? { body } : {}) });

describe('API services (admin)', () => {
  it('creates a service whose secret is shown once and kept only hashed', async () => {
    const created = await call(t.app, 'POST', '/api/v1/admin/api-services', { token: admin.access, body: serviceForm() });
    expect(created.status).toBe(200);
    const { id, credentials } = created.body;
    expect(credentials.client_secret.length).toBeGreaterThanOrEqual(43);
    const detail = await call(t.app, 'GET', `/api/v1/admin/api-services/${id}`, { token: admin.access });
    expect(detail.body).toMatchObject({ name: 'Grafana', client_id: credentials.client_id, grant_types: ['authorization_code'], is_active: true, scopes: ['openid', 'email'] });
    const everything = JSON.stringify([detail.body, (await call(t.app, 'GET', '/api/v1/admin/api-services', { token: admin.access })).body]);
    expect(everything).not.toContain(credentials.client_secret);
    const row = await t.db.selectFrom('api_services').selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(credentials.client_secret);
  });

  it('updates, toggles, regenerates the secret, searches, and shows public info of active services only', async () => {
    const { id, credentials } = (await call(t.app, 'POST', '/api/v1/admin/api-services', { token: admin.access, body: serviceForm() })).body;
    await call(t.app, 'POST', '/api/v1/admin/api-services', { token: admin.access, body: serviceForm({ name: 'Immich' }) });
    const updated = await call(t.app, 'PUT', `/api/v1/admin/api-services/${id}`, { token: admin.access, body: serviceForm({ redirect_uris: ['https://grafana.home.lan/cb', 'https://grafana.home.lan/cb2'] }) });
    expect(updated.body.redirect_uris).toHaveLength(2);
    const search = async (text: string) => ((await call(t.app, 'GET', `/api/v1/admin/api-services?search=${encodeURIComponent(text)}`, { token: admin.access })).body.items as Array<{ name: string }>).map((s) => s.name);
    expect(await search('graf')).toEqual(['Grafana']);
    expect(await search(' graf '), 'the spaces around it are not searched for').toEqual(['Grafana']);
    expect((await search('  ')).sort(), 'blank: all of them').toEqual(['Grafana', 'Immich']);
    expect((await call(t.app, 'GET', `/api/v1/api-services/client/${credentials.client_id}`)).body).toEqual({ name: 'Grafana', icon_url: null, scopes: ['openid', 'email'] });
    expect((await call(t.app, 'PATCH', `/api/v1/admin/api-services/toggle/${id}`, { token: admin.access })).body.is_active).toBe(false);
    expect((await call(t.app, 'GET', `/api/v1/api-services/client/${credentials.client_id}`)).status).toBe(404);
    const renewed = await call(t.app, 'POST', `/api/v1/admin/api-services/${id}/credentials`, { token: admin.access, body: {} });
    expect(renewed.body.credentials.client_id).toBe(credentials.client_id);
    expect(renewed.body.credentials.client_secret).not.toBe(credentials.client_secret);
  });

  it('lists the newest first; services made in one millisecond always in the same order (by id)', async () => {
    const make = async (name: string) => (await call(t.app, 'POST', '/api/v1/admin/api-services', { token: admin.access, body: serviceForm({ name }) })).body.id as string;
    const first = await make('First');
    t.advance(1000);
    const together = [];
    for (const name of ['A', 'B', 'C', 'D', 'E', 'F']) together.push(await make(name)); // the test clock stands still
    const listed = (await call(t.app, 'GET', '/api/v1/admin/api-services', { token: admin.access })).body.items.map((s: { id: string }) => s.id);
    expect(listed).toEqual([...together.sort(), first]);
  });

  it('turns a service to the state asked for: two admins who both click Disable leave it disabled, and one event is logged', async () => {
    const { id } = (await call(t.app, 'POST', '/api/v1/admin/api-services', { token: admin.access, body: serviceForm() })).body;
    const toggle = (body?: unknown) => call(t.app, 'PATCH', `/api/v1/admin/api-services/toggle/${id}`, { token: admin.access, ...(body === undefined ? {} : { body }) });
    const clicks = [await toggle({ is_active: false }), await toggle({ is_active: false })];
    expect(clicks.map((answer) => [answer.status, answer.body.is_active])).toEqual([[200, false], [200, false]]);
    expect((await toggle({ is_active: true })).body.is_active).toBe(true);
    expect((await toggle()).body.is_active, 'no body: the other state').toBe(false);
    expect((await toggle({ is_active: 'no' })).body).toEqual({ error: 'is_active: must be true or false', field: 'is_active' });
    expect((await toggle({ is_active: true, extra: 1 })).body).toEqual({ error: 'Only is_active may be sent, not extra' });
    expect((await toggle([])).body).toEqual({ error: 'The body must be empty, or {"is_active": true or false}' });
    const events = await t.db.selectFrom('audit_events').select('kind').where('kind', 'in', ['service-turned-on', 'service-turned-off']).orderBy('id').execute();
    expect(events.map((event) => event.kind)).toEqual(['service-turned-off', 'service-turned-on', 'service-turned-off']);
  });

  it('an edit logs what it changed: nothing for the form sent back as it was, a turn off for is_active, and which settings', async () => {
    const { id } = (await call(t.app, 'POST', '/api/v1/admin/api-services', { token: admin.access, body: serviceForm() })).body;
    const edit = (body: Record<string, unknown>) => call(t.app, 'PUT', `/api/v1/admin/api-services/${id}`, { token: admin.access, body });
    const logged = async () => (await t.db.selectFrom('audit_events').select('kind').where('service_id', '=', id).orderBy('id').execute()).map((event) => event.kind);
    expect((await edit(serviceForm())).status).toBe(200);
    expect((await edit(serviceForm())).status).toBe(200);
    expect(await logged()).toEqual(['service-created']);
    const renamed = await edit(serviceForm({ name: 'Grafana Dashboards' }));
    expect(renamed.body).toMatchObject({ name: 'Grafana Dashboards', is_active: true });
    // Sent, is_active is applied, as the answer says; left out, it stays.
    expect((await edit(serviceForm({ name: 'Grafana Dashboards', is_active: false }))).body.is_active).toBe(false);
    const { is_active: _left, ...withoutState } = serviceForm({ name: 'Grafana Dashboards' });
    expect((await edit(withoutState)).body.is_active).toBe(false);
    expect(await logged()).toEqual(['service-created', 'service-changed', 'service-turned-off']);

    // The change says what changed, the settings that weaken a sign-in by their direction.
    const details = async () => (await t.db.selectFrom('audit_events').select('detail').where('service_id', '=', id).where('kind', '=', 'service-changed').orderBy('id').execute()).map((event) => event.detail);
    await edit(serviceForm({ name: 'Grafana Dashboards', is_active: false, redirect_uris: ['https://grafana.home.lan/login/generic_oauth', 'https://grafana.lan/cb'], require_two_step: true }));
    await edit(serviceForm({ name: 'Grafana Dashboards', is_active: false, redirect_uris: ['https://grafana.lan/cb'], require_two_step: false, public_client: true }));
    expect(await details()).toEqual([
      'Grafana Dashboards\nname',
      'Grafana Dashboards\nredirect_uris, two-step-required',
      'Grafana Dashboards\nredirect_uris, two-step-not-required, made-public',
    ]);
  });

  it("refuses an edit made from a form read before another administrator's, which would undo their change", async () => {
    const as = (path: string, method: 'GET' | 'PUT' | 'PATCH' = 'GET', body?: unknown) => call(t.app, method, path, { token: admin.access, ...(body ? { body } : {}) });
    const { id } = (await call(t.app, 'POST', '/api/v1/admin/api-services', { token: admin.access, body: serviceForm() })).body;
    const opened = (await as(`/api/v1/admin/api-services/${id}`)).body;
    // Disabling and enabling it changes nothing the form shows.
    await as(`/api/v1/admin/api-services/toggle/${id}`, 'PATCH', { is_active: false });
    await as(`/api/v1/admin/api-services/toggle/${id}`, 'PATCH', { is_active: true });
    expect((await as(`/api/v1/admin/api-services/${id}`)).body.edit_version).toBe(opened.edit_version);

    const form = { ...serviceForm(), edit_version: opened.edit_version };
    expect((await as(`/api/v1/admin/api-services/${id}`, 'PUT', { ...form, require_two_step: true, allowed_groups: ['family'] })).status).toBe(200);
    const late = await as(`/api/v1/admin/api-services/${id}`, 'PUT', { ...form, name: 'Grafana at home' });
    expect([late.status, late.body.error]).toEqual([409, 'Another administrator changed this service since you opened it: reload it to see their changes, then edit again']);
    expect((await as(`/api/v1/admin/api-services/${id}`)).body).toMatchObject({ name: 'Grafana', require_two_step: true, allowed_groups: ['family'] });
    // Read again, the form is good; a script that sends no version edits as before.
    const reread = (await as(`/api/v1/admin/api-services/${id}`)).body.edit_version;
    expect((await as(`/api/v1/admin/api-services/${id}`, 'PUT', { ...serviceForm(), name: 'Grafana at home', edit_version: reread })).status).toBe(200);
    expect((await as(`/api/v1/admin/api-services/${id}`, 'PUT', { ...serviceForm(), name: 'Grafana' })).body.name).toBe('Grafana');
  });

  it('keeps the groups a service is open to: everyone by default, kept when an edit leaves them out, cleared by an empty list', async () => {
    const { id } = (await api('POST', '/api/v1/admin/api-services', serviceForm())).body;
    expect((await api('GET', `/api/v1/admin/api-services/${id}`)).body.allowed_groups).toEqual([]);
    expect((await api('PUT', `/api/v1/admin/api-services/${id}`, serviceForm({ allowed_groups: ['family ', 'family', 'friends'] }))).body.allowed_groups).toEqual(['family', 'friends']);
    expect((await api('PUT', `/api/v1/admin/api-services/${id}`, serviceForm())).body.allowed_groups).toEqual(['family', 'friends']);
    const refused = await api('PUT', `/api/v1/admin/api-services/${id}`, serviceForm({ allowed_groups: ['family', '-dash'] }));
    expect([refused.status, refused.body.error]).toEqual([400, 'allowed_groups.1: A group name is up to 64 letters, digits, spaces and . _ -, starting with a letter or digit']);
    expect((await api('GET', `/api/v1/admin/api-services/${id}`)).body.allowed_groups).toEqual(['family', 'friends']);
    expect((await api('PUT', `/api/v1/admin/api-services/${id}`, serviceForm({ allowed_groups: [] }))).body.allowed_groups).toEqual([]);
    const created = (await api('POST', '/api/v1/admin/api-services', serviceForm({ name: 'Immich', allowed_groups: ['family'] }))).body;
    expect((await api('GET', `/api/v1/admin/api-services/${created.id}`)).body.allowed_groups).toEqual(['family']);
  });

  it('keeps the grant types when an edit leaves them out; left out or empty when created, or emptied, they are authorization_code', async () => {
    const withoutGrants = serviceForm({ grant_types: undefined }); // undefined: left out of the JSON
    const { id } = (await api('POST', '/api/v1/admin/api-services', withoutGrants)).body;
    const grants = async () => (await api('GET', `/api/v1/admin/api-services/${id}`)).body.grant_types;
    expect(await grants(), 'left out when created').toEqual(['authorization_code']);
    expect((await api('PUT', `/api/v1/admin/api-services/${id}`, serviceForm({ grant_types: ['authorization_code', 'refresh_token'] }))).body.grant_types).toEqual(['authorization_code', 'refresh_token']);
    const renamed = await api('PUT', `/api/v1/admin/api-services/${id}`, { ...withoutGrants, name: 'Grafana Dashboards' });
    expect([renamed.status, renamed.body.name, renamed.body.grant_types], 'left out: kept').toEqual([200, 'Grafana Dashboards', ['authorization_code', 'refresh_token']]);
    const refused = await api('PUT', `/api/v1/admin/api-services/${id}`, serviceForm({ grant_types: ['implicit'] }));
    expect([refused.status, refused.body.error]).toEqual([400, 'grant_types.0: Grant types must be among authorization_code, refresh_token']);
    expect(await grants()).toEqual(['authorization_code', 'refresh_token']);
    expect((await api('PUT', `/api/v1/admin/api-services/${id}`, serviceForm({ grant_types: [] }))).body.grant_types, 'emptied').toEqual(['authorization_code']);
  });

  it('asks for two-step sign-in only when told: off by default, kept when an edit leaves it out', async () => {
    const { id } = (await api('POST', '/api/v1/admin/api-services', serviceForm())).body;
    const required = async () => (await api('GET', `/api/v1/admin/api-services/${id}`)).body.require_two_step;
    expect(await required()).toBe(false);
    expect((await api('PUT', `/api/v1/admin/api-services/${id}`, serviceForm({ require_two_step: true }))).body.require_two_step).toBe(true);
    expect((await api('PUT', `/api/v1/admin/api-services/${id}`, serviceForm())).body.require_two_step).toBe(true);
    const refused = await api('PUT', `/api/v1/admin/api-services/${id}`, serviceForm({ require_two_step: 'yes' }));
    expect([refused.status, refused.body.error]).toEqual([400, 'require_two_step: must be true or false']);
    expect(await required()).toBe(true);
    expect((await api('PUT', `/api/v1/admin/api-services/${id}`, serviceForm({ require_two_step: false }))).body.require_two_step).toBe(false);
  });

  it('changes its icon, home page and ID token algorithm when an edit sends them, keeps them when it leaves them out, and clears the icon and home page sent as null', async () => {
    const links = { icon_url: 'https://grafana.home.lan/icon.png', launch_url: 'https://grafana.home.lan/' };
    const { id } = (await api('POST', '/api/v1/admin/api-services', serviceForm(links))).body;
    const settings = async () => {
      const { icon_url, launch_url, id_token_signed_response_alg } = (await api('GET', `/api/v1/admin/api-services/${id}`)).body;
      return { icon_url, launch_url, id_token_signed_response_alg };
    };
    expect(await settings()).toEqual({ ...links, id_token_signed_response_alg: 'RS256' });
    const moved = { icon_url: 'https://grafana.lan/icon.svg', launch_url: 'https://grafana.lan/', id_token_signed_response_alg: 'ES256' };
    expect((await api('PUT', `/api/v1/admin/api-services/${id}`, serviceForm(moved))).status).toBe(200);
    expect(await settings()).toEqual(moved);
    expect((await api('PUT', `/api/v1/admin/api-services/${id}`, serviceForm())).status).toBe(200);
    expect(await settings(), 'left out: kept').toEqual(moved);
    expect((await api('PUT', `/api/v1/admin/api-services/${id}`, serviceForm({ icon_url: null, launch_url: null }))).status).toBe(200);
    expect(await settings()).toEqual({ icon_url: null, launch_url: null, id_token_signed_response_alg: 'ES256' });
  });

  it("validates with the spec's messages", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: '' }, 'name: Name is required'],
      [{ description: ' ' }, 'description: Description is required'],
      [{ name: 'Grafana\r\nBcc: x@evil.example' }, 'name: Name must not contain line breaks or other control characters'],
      [{ description: 'Dashboards\u001b[2J' }, 'description: Description must not contain control characters other than line breaks and tabs'],
      [{ redirect_uris: [] }, 'redirect_uris: At least one URI is required'],
      [{ redirect_uris: ['/relative'] }, "redirect_uris.0: Each URI must be an absolute http(s) URL, or an app's own scheme such as app.immich:/, without a fragment"],
      [{ redirect_uris: ['https://x.lan/cb#frag'] }, "redirect_uris.0: Each URI must be an absolute http(s) URL, or an app's own scheme such as app.immich:/, without a fragment"],
      [{ redirect_uris: ['app.immich:///cb#frag'] }, "redirect_uris.0: Each URI must be an absolute http(s) URL, or an app's own scheme such as app.immich:/, without a fragment"],
      [{ redirect_uris: ['https://x.lan/cb', 'javascript:alert(1)'] }, "redirect_uris.1: Each URI must be an absolute http(s) URL, or an app's own scheme such as app.immich:/, without a fragment"],
      [{ redirect_uris: ['data:text/html,hi'] }, "redirect_uris.0: Each URI must be an absolute http(s) URL, or an app's own scheme such as app.immich:/, without a fragment"],
      [{ redirect_uris: ['file:///etc/passwd'] }, "redirect_uris.0: Each URI must be an absolute http(s) URL, or an app's own scheme such as app.immich:/, without a fragment"],
      [{ redirect_uris: ['mailto:a@x.lan'] }, "redirect_uris.0: Each URI must be an absolute http(s) URL, or an app's own scheme such as app.immich:/, without a fragment"],
      [{ redirect_uris: [' app.immich:///cb'] }, "redirect_uris.0: Each URI must be an absolute http(s) URL, or an app's own scheme such as app.immich:/, without a fragment"],
      [{ redirect_uris: ['https://x.lan/cb '] }, "redirect_uris.0: Each URI must be an absolute http(s) URL, or an app's own scheme such as app.immich:/, without a fragment"],
      [{ redirect_uris: ['https://grafana.example@evil.example/cb'] }, 'redirect_uris.0: A URI may not hold a user name or password'],
      [{ redirect_uris: ['https://x.lan/cb', 'https://user:secret@x.lan/cb'] }, 'redirect_uris.1: A URI may not hold a user name or password'],
      [{ scopes: [] }, 'scopes: Scopes are required'],
      [{ scopes: ['openid', 'admin'] }, 'scopes.1: Scopes must be among openid, email, profile, offline_access, groups'],
      [{ grant_types: ['password'] }, 'grant_types.0: Grant types must be among authorization_code, refresh_token'],
    ];
    for (const [overrides, message] of cases) {
      const answer = await call(t.app, 'POST', '/api/v1/admin/api-services', { token: admin.access, body: serviceForm(overrides) });
      expect(answer.status, message).toBe(400);
      expect(answer.body.error).toBe(message);
    }
    expect(await t.db.selectFrom('api_services').selectAll().execute()).toEqual([]);
  });

  it('answers 401 without a token and 403 to a non-admin on every route', async () => {
    const { id } = (await call(t.app, 'POST', '/api/v1/admin/api-services', { token: admin.access, body: serviceForm() })).body;
    const routes: Array<['GET' | 'POST' | 'PUT' | 'PATCH', string, unknown]> = [
      ['GET', '/api/v1/admin/api-services', undefined],
      ['POST', '/api/v1/admin/api-services', serviceForm()],
      ['GET', `/api/v1/admin/api-services/${id}`, undefined],
      ['PUT', `/api/v1/admin/api-services/${id}`, serviceForm()],
      ['PATCH', `/api/v1/admin/api-services/toggle/${id}`, {}],
      ['POST', `/api/v1/admin/api-services/${id}/credentials`, {}],
    ];
    for (const [method, url, body] of routes) {
      expect((await call(t.app, method, url, { body })).status, `${method} ${url}`).toBe(401);
      const refused = await call(t.app, method, url, { body, token: regular.access });
      expect(refused.status, `${method} ${url}`).toBe(403);
      expect(JSON.stringify(refused.body)).not.toContain('client_secret');
    }
    expect((await call(t.app, 'GET', `/api/v1/admin/api-services/${id}`, { token: admin.access })).body.is_active).toBe(true);
  });

  it('answers 404 for a service that is not there, on every route, changing nothing', async () => {
    const routes: Array<['GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', string, unknown]> = [
      ['GET', '/api/v1/admin/api-services/unknown', undefined],
      ['PUT', '/api/v1/admin/api-services/unknown', serviceForm()],
      ['PATCH', '/api/v1/admin/api-services/toggle/unknown', {}],
      ['POST', '/api/v1/admin/api-services/unknown/credentials', {}],
      ['DELETE', '/api/v1/admin/api-services/unknown', {}],
      ['GET', '/api/v1/api-services/client/unknown', undefined],
    ];
    for (const [method, url, body] of routes) {
      const answer = await api(method, url, body);
      expect([answer.status, answer.body], `${method} ${url}`).toEqual([404, { error: 'API service not found' }]);
    }
    expect(await t.db.selectFrom('api_services').selectAll().execute()).toEqual([]);
  });
});

describe('an edit that another change overtakes between its read and its write', () => {
  const edit = (id: string, body: Record<string, unknown>) => api('PUT', `/api/v1/admin/api-services/${id}`, body);
  /** Sends `first`, holds it once it has read the service, runs `meanwhile`, then lets it write. */
  async function overtaken<T>(first: () => Promise<T>, meanwhile: () => Promise<unknown>): Promise<T> {
    const { held, release } = holdTheNextCallAfterItsAnswer(ApiServicesRepository.prototype, 'findById');
    const answer = first();
    await held;
    t.advance(1000);
    await meanwhile();
    release();
    return answer;
  }

  it('is refused when sent with the version of its form, and the change that overtook it stays', async () => {
    const { id } = (await api('POST', '/api/v1/admin/api-services', serviceForm())).body;
    const { edit_version } = (await api('GET', `/api/v1/admin/api-services/${id}`)).body;
    const late = await overtaken(() => edit(id, serviceForm({ name: 'Grafana at home', edit_version })), () => edit(id, serviceForm({ require_two_step: true })));
    expect([late.status, late.body.error]).toEqual([409, 'Another administrator changed this service since you opened it: reload it to see their changes, then edit again']);
    expect((await api('GET', `/api/v1/admin/api-services/${id}`)).body).toMatchObject({ name: 'Grafana', require_two_step: true });
  });

  it('is written when sent without a version, as a script sends it: the later write wins', async () => {
    const { id } = (await api('POST', '/api/v1/admin/api-services', serviceForm())).body;
    const last = await overtaken(() => edit(id, serviceForm({ name: 'Grafana at home' })), () => edit(id, serviceForm({ name: 'Dashboards' })));
    expect([last.status, last.body.name]).toEqual([200, 'Grafana at home']);
  });

  it('answers 404 when the service was deleted meanwhile', async () => {
    const { id } = (await api('POST', '/api/v1/admin/api-services', serviceForm())).body;
    const { edit_version } = (await api('GET', `/api/v1/admin/api-services/${id}`)).body;
    const late = await overtaken(() => edit(id, serviceForm({ name: 'Grafana at home', edit_version })), () => api('DELETE', `/api/v1/admin/api-services/${id}`, {}));
    expect([late.status, late.body]).toEqual([404, { error: 'API service not found' }]);
    expect(await t.db.selectFrom('api_services').selectAll().execute()).toEqual([]);
  });
});
