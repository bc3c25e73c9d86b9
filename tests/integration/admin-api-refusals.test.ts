import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsersAdmin } from '../../server/admin/users-admin';
import { ServiceSessionsRepository } from '../../server/oauth/service-sessions-repository';
import { failingQueries } from '../support/failing-queries';
import { call, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

// What the admin area's users and sessions calls refuse, and what they let an administrator do
// that a person could not do for themselves. (The `npm run admin` command's refusals are in
// admin-refusals.test.ts.)
let t: TestApp;
let admin: Awaited<ReturnType<typeof registerAndLogin>>;
beforeEach(async () => {
  t = await startTestApp({ REGISTRATION: 'closed' });
  admin = await registerAndLogin(t.app); // the first account is the administrator, registration closed or not
});
afterEach(async () => t.close());

const api = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) => call(t.app, method, url, { token: admin.access, ...(body ? { body } : {}) });
const newUser = { full_name: 'Bob Builder', email: 'bob@example.com', password: 'Builder123' };

describe('an account or session that is not there', () => {
  it('is answered 404 on every route, changing nothing', async () => {
    const edit = { full_name: 'Nobody', email: 'nobody@example.com', phone_number: null, is_admin: false };
    const routes: Array<[Parameters<typeof api>[0], string, unknown, string]> = [
      ['GET', '/api/v1/admin/users/unknown', undefined, 'user not found'],
      ['PUT', '/api/v1/admin/users/unknown', edit, 'user not found'],
      ['PUT', '/api/v1/admin/users/unknown/password', { password: 'Another-pass1' }, 'user not found'],
      ['PUT', '/api/v1/admin/users/unknown/status', { disabled: true }, 'user not found'],
      ['POST', '/api/v1/admin/users/unknown/sign-out', {}, 'user not found'],
      ['DELETE', '/api/v1/admin/users/unknown/two-step', {}, 'user not found'],
      ['DELETE', '/api/v1/admin/users/unknown', {}, 'user not found'],
      ['PATCH', '/api/v1/admin/user-sessions/revoke/unknown', {}, 'session not found'],
      ['PATCH', '/api/v1/admin/service-sessions/revoke/unknown', {}, 'session not found'],
    ];
    const stored = () => Promise.all([t.db.selectFrom('users').selectAll().execute(), t.db.selectFrom('audit_events').selectAll().execute()]);
    const before = await stored();
    for (const [method, url, body, error] of routes) {
      const answer = await api(method, url, body);
      expect([answer.status, answer.body], `${method} ${url}`).toEqual([404, { error }]);
    }
    expect(await stored()).toEqual(before);
  });
});

describe('an edit to an address or username another account has', () => {
  it('is refused, naming which, and changes nothing', async () => {
    const bob = (await api('POST', '/api/v1/admin/users', { ...newUser, username: 'bob' })).body;
    const edit = { full_name: 'Bob Builder', email: bob.email, username: 'bob', phone_number: null, is_admin: false };
    const taken = [
      [{ email: admin.email }, 'email is already registered'],
      [{ username: (await api('GET', `/api/v1/admin/users/${admin.id}`)).body.username }, 'username is already taken'],
    ] as const;
    for (const [change, error] of taken) {
      const refused = await api('PUT', `/api/v1/admin/users/${bob.id}`, { ...edit, ...change });
      expect([refused.status, refused.body.error], error).toEqual([409, error]);
    }
    expect((await api('GET', `/api/v1/admin/users/${bob.id}`)).body).toMatchObject({ email: 'bob@example.com', username: 'bob', edit_version: bob.edit_version });
  });

  it('is told only of a unique violation: a write that fails otherwise is not "already registered"', async () => {
    const bob = (await api('POST', '/api/v1/admin/users', newUser)).body;
    const { accounts, sessions, authenticatorApps, notify, clock } = t.app.services;
    const writesFail = t.db.withPlugin(failingQueries('UpdateQueryNode', 'disk I/O error'));
    const usersAdmin = new UsersAdmin(writesFail, accounts, sessions, new ServiceSessionsRepository(writesFail), authenticatorApps, notify, clock);
    const by = await sessions.authenticate(admin.access);
    const edit = { full_name: 'Bob Builder', email: 'robert@example.com', phone_number: null, is_admin: false };
    await expect(usersAdmin.update(bob.id, edit, by, false)).rejects.toThrow('disk I/O error');
    expect((await api('GET', `/api/v1/admin/users/${bob.id}`)).body).toMatchObject({ email: 'bob@example.com', edit_version: bob.edit_version });
  });
});

describe('an account made by an administrator', () => {
  it('is made while registration is closed, and one made an administrator is logged as one', async () => {
    const made = await api('POST', '/api/v1/admin/users', { ...newUser, is_admin: true });
    expect([made.status, made.body.is_admin]).toEqual([200, true]);
    const plain = await api('POST', '/api/v1/admin/users', { ...newUser, email: 'cy@example.com' });
    expect([plain.status, plain.body.is_admin]).toEqual([200, false]);
    const logged = await t.db.selectFrom('audit_events').select(['kind', 'detail']).where('user_id', 'in', [made.body.id, plain.body.id]).orderBy('id').execute();
    expect(logged).toEqual([
      { kind: 'account-created', detail: 'administrator' },
      { kind: 'account-created', detail: null },
    ]);
  });
});
