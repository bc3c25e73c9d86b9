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
