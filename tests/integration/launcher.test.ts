import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let admin: Awaited<ReturnType<typeof registerAndLogin>>;
beforeEach(async () => {
  t = await startTestApp();
  admin = await registerAndLogin(t.app); // the first account is the administrator
});
afterEach(async () => t.close());

const service = async (name: string, fields: Record<string, unknown>) => {
  const body = { name, description: name, redirect_uris: ['https://apps.home.lan/cb'], scopes: ['openid'], ...fields };
  const created = await call(t.app, 'POST', '/api/v1/admin/api-services', { token: admin.access, body });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.id as string;
};
const launcher = async (token: string) => (await call(t.app, 'GET', '/api/v1/auth/launcher', { token })).body.items as Array<{ name: string; launch_url: string }>;

it('Home lists the active services with a home page that let the person in, by name', async () => {
  await service('photos', { launch_url: 'https://photos.home.lan', allowed_groups: ['family'] });
  await service('Grafana', { launch_url: 'https://grafana.home.lan/', icon_url: 'https://grafana.home.lan/icon.png' });
  await service('No home page', {});
  await service('Switched off', { launch_url: 'https://off.home.lan', is_active: false });
  const person = await registerAndLogin(t.app);

  expect(await launcher(person.access)).toEqual([{ id: expect.any(String), name: 'Grafana', icon_url: 'https://grafana.home.lan/icon.png', launch_url: 'https://grafana.home.lan/' }]);
  const detail = (await call(t.app, 'GET', `/api/v1/admin/users/${person.id}`, { token: admin.access })).body;
  await call(t.app, 'PUT', `/api/v1/admin/users/${person.id}`, { token: admin.access, body: { full_name: detail.full_name, email: detail.email, phone_number: null, is_admin: false, groups: ['family'] } });
  expect((await launcher(person.access)).map((s) => s.name)).toEqual(['Grafana', 'photos']);
  expect((await call(t.app, 'GET', '/api/v1/auth/launcher')).status).toBe(401);
});

it('takes only an http(s) home page, and an empty one takes the service off Home', async () => {
  const id = await service('Wiki', { launch_url: 'https://wiki.home.lan' });
  const edit = (launch_url: unknown) => call(t.app, 'PUT', `/api/v1/admin/api-services/${id}`, { token: admin.access, body: { name: 'Wiki', description: 'Wiki', redirect_uris: ['https://apps.home.lan/cb'], scopes: ['openid'], launch_url } });
  const refused = await edit('javascript:alert(1)');
  expect([refused.status, refused.body.error]).toEqual([400, 'launch_url: Home page must be an absolute http(s) URL']);
  expect((await launcher(admin.access)).map((s) => s.launch_url)).toEqual(['https://wiki.home.lan']);
  expect((await edit(null)).body.launch_url).toBeNull();
  expect(await launcher(admin.access)).toEqual([]);
});
