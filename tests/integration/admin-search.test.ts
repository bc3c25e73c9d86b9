import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => t.close());

it('finds names whatever the case of their letters, in any script', async () => {
  const admin = await registerAndLogin(t.app, { full_name: 'Ada Admin' });
  for (const [full_name, email] of [['Émile Zola', 'emile@example.com'], ['Иван Петров', 'ivan@example.com'], ['Øystein Ærø', 'oystein@example.com']]) {
    expect((await call(t.app, 'POST', '/api/v1/admin/users', { token: admin.access, body: { full_name, email, password: 'Secret-123', is_admin: false } })).status).toBe(200);
  }
  const found = async (search: string) => ((await call(t.app, 'GET', `/api/v1/admin/users?search=${encodeURIComponent(search)}`, { token: admin.access })).body.items as Array<{ full_name: string }>).map((user) => user.full_name);
  expect(await found('émile')).toEqual(['Émile Zola']);
  expect(await found('ÉMILE')).toEqual(['Émile Zola']);
  expect(await found('иван')).toEqual(['Иван Петров']);
  expect(await found('ПЕТР')).toEqual(['Иван Петров']);
  expect(await found('ærø')).toEqual(['Øystein Ærø']);
  expect(await found('zola')).toEqual(['Émile Zola']);
});

it("takes the search's own LIKE wildcards and backslashes literally, and the spaces around it as typed by mistake", async () => {
  const admin = await registerAndLogin(t.app, { full_name: 'Ada Admin' });
  const names = ['Max 100% Power', 'Max 1000 Power', 'Under_Score', 'UnderXScore', 'Back\\Slash', 'BackSlash'];
  for (const [index, full_name] of names.entries()) {
    expect((await call(t.app, 'POST', '/api/v1/admin/users', { token: admin.access, body: { full_name, email: `person${index}@example.com`, password: 'Secret-123', is_admin: false } })).status).toBe(200);
  }
  const found = async (search: string) => ((await call(t.app, 'GET', `/api/v1/admin/users?search=${encodeURIComponent(search)}`, { token: admin.access })).body.items as Array<{ full_name: string }>).map((user) => user.full_name);
  expect(await found('100%')).toEqual(['Max 100% Power']);
  expect(await found('under_')).toEqual(['Under_Score']);
  expect(await found('back\\')).toEqual(['Back\\Slash']);
  expect(await found('  under_score\t')).toEqual(['Under_Score']);
});
