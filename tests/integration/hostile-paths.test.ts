import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let admin: Awaited<ReturnType<typeof registerAndLogin>>;
beforeAll(async () => {
  t = await startTestApp();
  admin = await registerAndLogin(t.app);
});
afterAll(async () => t.close());

const HOSTILE = ["' OR '1'='1", '1; DROP TABLE users; --', '../../etc/passwd', '..%2F..%2Fetc%2Fpasswd', '%00', '%27%20OR%201%3D1--', 'a'.repeat(3000), '%E2%80%AE', '<script>alert(1)</script>'];
const PATHS = [
  '/api/v1/admin/api-services/{x}',
  '/api/v1/admin/api-services/toggle/{x}',
  '/api/v1/admin/users/{x}',
  '/api/v1/admin/user-sessions/revoke/{x}',
  '/api/v1/admin/service-sessions/revoke/{x}',
  '/api/v1/api-services/client/{x}',
  '/avatars/{x}',
];
const QUERIES = ['/api/v1/admin/users?search={x}', '/api/v1/admin/api-services?search={x}', '/api/v1/admin/user-sessions?page=1&size=10&search={x}', '/api/v1/admin/service-sessions?search={x}&page={x}', '/api/v1/admin/audit-log?search={x}&user_id={x}', '/api/v1/oauth/authorize?client_id={x}&redirect_uri={x}'];

it('answers SQL-injection and path-traversal strings in every path and query parameter without a 5xx or a leak', async () => {
  const usersBefore = await t.db.selectFrom('users').selectAll().execute();
  for (const raw of HOSTILE) {
    for (const template of [...PATHS, ...QUERIES]) {
      const url = template.replaceAll('{x}', raw.includes('%') ? raw : encodeURIComponent(raw));
      for (const method of ['GET', 'PATCH', 'PUT', 'DELETE'] as const) {
        const answer = await call(t.app, method, url, { token: admin.access, ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }) });
        expect(answer.status, `${method} ${url}`).toBeLessThan(500);
        expect(JSON.stringify(answer.body), url).not.toMatch(/root:x:0|SQLITE_|syntax error|at .*\.ts:\d+/);
      }
    }
  }
  // Searches treat the text literally: a LIKE wildcard finds nothing extra.
  expect((await call(t.app, 'GET', `/api/v1/admin/users?search=${encodeURIComponent("' OR '1'='1")}`, { token: admin.access })).body.items).toEqual([]);
  expect((await call(t.app, 'GET', '/api/v1/admin/users?search=%25', { token: admin.access })).body.items).toEqual([]);
  expect(await t.db.selectFrom('users').selectAll().execute()).toEqual(usersBefore);
});

it('refuses NUL characters in bodies, forms and paths with a 400 (PostgreSQL cannot store them)', async () => {
  const body = await call(t.app, 'POST', '/api/v1/register', { body: { full_name: 'Nul\u0000Name', email: 'nul@example.com', password: 'Valid-pass1' } });
  expect(body.status).toBe(400);
  expect(body.body.error).toMatch(/NUL/);
  const form = await t.app.inject({ method: 'POST', url: '/api/v1/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'grant_type=authorization_code&code=a%00b' });
  expect([form.statusCode, form.json()]).toEqual([400, { error: 'invalid_request', error_description: 'The request contains a NUL character' }]);
  expect((await call(t.app, 'GET', '/api/v1/api-services/client/x%00y')).status).toBe(400);
  expect(await t.db.selectFrom('users').select('email').where('email', '=', 'nul@example.com').execute()).toEqual([]);
});
