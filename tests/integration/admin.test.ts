import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, callsWith, proveEmail, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';
import { lockWaits, testDatabaseKind } from '../support/test-database';
import { UsersAdmin } from '../../server/admin/users-admin';
import { ADMIN_ROUTE_REFUSED } from '../../server/services';
import { holdTheNextCallBeforeItRuns, meetingAt } from '../support/hold-a-call';

let t: TestApp;
let admin: Awaited<ReturnType<typeof registerAndLogin>>;
beforeEach(async () => {
  t = await startTestApp();
  admin = await registerAndLogin(t.app, { full_name: 'Ada Admin' });
});
afterEach(async () => t.close());

const as = (token: string) => callsWith(t.app, token);

/**
 * Sends requests that each take an administrator away, so that both have signed in before either
 * counts the administrators left. On PostgreSQL another transaction holds the users table against
 * writes until two of them wait for it, so both have read before either writes. SQLite's one
 * connection runs one transaction at a time: each request is held before its own until both are.
 */
async function atOnce<T>(requests: Array<() => Promise<T>>): Promise<T[]> {
  if (testDatabaseKind() !== 'postgres') {
    const changes = UsersAdmin.prototype as unknown as { changingAdministrators: () => Promise<unknown> };
    return meetingAt(() => holdTheNextCallBeforeItRuns(changes, 'changingAdministrators'), requests);
  }
  const { answers } = await t.db.transaction().execute(async (tx) => {
    await sql`lock table users in share mode`.execute(tx);
    const sent = Promise.all(requests.map((request) => request()));
    await expect.poll(() => lockWaits(t.db)).toBe(2);
    return { answers: sent };
  });
  return answers;
}

describe('users (admin)', () => {
  it('deletes an account and writes the audit line that keeps who it was in one commit', async () => {
    const bob = await registerAndLogin(t.app, { full_name: 'Bob Gone' });
    const by = await t.app.services.sessions.authenticate(admin.access);
    // The line cannot be written (the database refuses, the process dies): the account stays.
    await expect(t.app.services.usersAdmin.delete(bob.id, by, async () => Promise.reject(new Error('audit line lost')))).rejects.toThrow('audit line lost');
    expect((await as(admin.access).get(`/api/v1/admin/users/${bob.id}`)).status).toBe(200);
    expect((await as(admin.access).delete(`/api/v1/admin/users/${bob.id}`)).status).toBe(200);
    const lines = await t.db.selectFrom('audit_events').select(['kind', 'detail']).where('user_id', '=', bob.id).where('kind', '=', 'account-deleted').execute();
    expect(lines).toEqual([{ kind: 'account-deleted', detail: `Bob Gone <${bob.email}>` }]);
  });

  it("refuses an edit made from a form read before another administrator's edit, which it would undo", async () => {
    const api = as(admin.access);
    const bob = (await api.post('/api/v1/admin/users', { full_name: 'Bob', email: 'bob@example.com', password: 'Builder123', is_admin: true })).body;
    const opened = (await api.get(`/api/v1/admin/users/${bob.id}`)).body;
    // Bob signing in, or uploading a picture, changes nothing the form shows: the form is still good.
    await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: 'bob@example.com', password: 'Builder123' } });
    expect((await api.get(`/api/v1/admin/users/${bob.id}`)).body.edit_version).toBe(opened.edit_version);

    const form = { full_name: opened.full_name, email: opened.email, is_admin: opened.is_admin, edit_version: opened.edit_version };
    expect((await api.put(`/api/v1/admin/users/${bob.id}`, { ...form, email: 'robert@example.com', is_admin: false })).status).toBe(200);
    const late = await api.put(`/api/v1/admin/users/${bob.id}`, { ...form, full_name: 'Bobby' });
    expect([late.status, late.body.error]).toEqual([409, 'Another administrator changed this account since you opened it: reload it to see their changes, then edit again']);
    expect((await api.get(`/api/v1/admin/users/${bob.id}`)).body).toMatchObject({ full_name: 'Bob', email: 'robert@example.com', is_admin: false });
    // Read again, the form is good; a script that sends no version edits as before.
    const reread = (await api.get(`/api/v1/admin/users/${bob.id}`)).body;
    expect((await api.put(`/api/v1/admin/users/${bob.id}`, { full_name: 'Bobby', email: reread.email, is_admin: false, edit_version: reread.edit_version })).status).toBe(200);
    expect((await api.put(`/api/v1/admin/users/${bob.id}`, { full_name: 'Rob', email: reread.email, is_admin: false })).body.full_name).toBe('Rob');
  });

  it('lists, searches, creates, edits and deletes users', async () => {
    const api = as(admin.access);
    t.advance(1000);
    const created = await api.post('/api/v1/admin/users', { full_name: 'Bob Builder', email: 'Bob@Example.com', password: 'Builder123', is_admin: false });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ full_name: 'Bob Builder', email: 'bob@example.com', is_admin: false, last_login: null, phone_number: null });
    const bob = created.body.id as string;
    expect((await api.get('/api/v1/admin/users')).body.items.map((u: { full_name: string }) => u.full_name)).toEqual(['Bob Builder', 'Ada Admin']);
    expect((await api.get('/api/v1/admin/users?search=BUILD')).body.items).toHaveLength(1);
    expect((await api.get('/api/v1/admin/users?search=%25')).body.items).toHaveLength(0);

    const edited = await api.put(`/api/v1/admin/users/${bob}`, { full_name: 'Robert Builder', email: 'bob@example.com', phone_number: '+1 555', is_admin: true });
    expect(edited.body).toMatchObject({ full_name: 'Robert Builder', phone_number: '+1 555', is_admin: true });
    expect((await api.put(`/api/v1/admin/users/${bob}`, { full_name: 'R', email: admin.email, phone_number: null, is_admin: true })).status).toBe(409);

    const login = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: 'bob@example.com', password: 'Builder123' } });
    expect(login.status).toBe(200);
    expect((await api.delete(`/api/v1/admin/users/${bob}`)).status).toBe(200);
    expect((await api.get(`/api/v1/admin/users/${bob}`)).status).toBe(404);
    // Deleting a user ends their sessions at once.
    expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: login.body.access })).status).toBe(401);
  });

  it("shows how far a user's verification has come: the email, the picture, and both", async () => {
    const bob = await registerAndLogin(t.app);
    const progress = async () => {
      const { email_verified, avatar_verified, verified } = (await as(admin.access).get(`/api/v1/admin/users/${bob.id}`)).body;
      return { email_verified, avatar_verified, verified };
    };
    expect(await progress()).toEqual({ email_verified: false, avatar_verified: false, verified: false });
    await proveEmail(t.db, bob.id);
    expect(await progress()).toEqual({ email_verified: true, avatar_verified: false, verified: false });
    await t.db.updateTable('users').set({ avatar_verified: 1, verified: 1 }).where('id', '=', bob.id).execute();
    expect(await progress()).toEqual({ email_verified: true, avatar_verified: true, verified: true });
  });

  it("validates with the spec's messages", async () => {
    const api = as(admin.access);
    expect((await api.post('/api/v1/admin/users', { full_name: '', email: 'x@y.zz', password: 'Good-pass1' })).body.error).toBe('full_name: Full Name is required');
    expect((await api.post('/api/v1/admin/users', { full_name: 'X', email: 'nope', password: 'Good-pass1' })).body.error).toBe('email: Invalid email');
    expect((await api.post('/api/v1/admin/users', { full_name: 'X', email: 'x@y.zz', password: 'short' })).body.error).toBe('password: Password must be at least 8 characters long');
    expect((await api.post('/api/v1/admin/users', { full_name: 'X', email: admin.email, password: 'Good-pass1' })).status).toBe(409);
  });

  it('gives every user a username: made from the email unless given, unique, changed only to a free and valid one', async () => {
    const api = as(admin.access);
    const detail = async (id: string) => (await api.get(`/api/v1/admin/users/${id}`)).body;
    const add = (email: string, username?: string) => api.post('/api/v1/admin/users', { full_name: 'Someone', email, password: 'Builder123', ...(username === undefined ? {} : { username }) });

    const bob = await add('Bob.Builder+home@example.com');
    expect(bob.body.username).toBe('bob.builder-home');
    expect((await add('bob.builder+home@example.org')).body.username, 'taken: numbered').toBe('bob.builder-home-2');
    expect((await add('bob.builder.home@example.net')).body.username, 'different: its own').toBe('bob.builder.home');
    expect((await add('cy@example.com', '  Cy.Young ')).body.username, 'given: trimmed, lower-cased').toBe('cy.young');
    expect((await add('dee@example.com', 'cy.young')).status, 'given and taken').toBe(409);
    expect(await api.get('/api/v1/admin/users?search=dee@'), 'refused: no account').toMatchObject({ body: { items: [] } });
    expect((await add('eve@example.com', 'eve..x')).body.error).toBe('username: Username may have letters and digits, with single . _ or - between them');
    expect((await api.get('/api/v1/admin/users?search=builder-home')).body.items).toHaveLength(2);

    const id = bob.body.id as string;
    const edit = (username?: string) => api.put(`/api/v1/admin/users/${id}`, { full_name: 'Bob', email: 'bob.builder+home@example.com', phone_number: null, is_admin: false, ...(username === undefined ? {} : { username }) });
    expect((await edit('Bob')).body.username).toBe('bob');
    expect((await edit()).body.username, 'left out: kept').toBe('bob');
    const taken = await edit('cy.young');
    expect([taken.status, taken.body.error]).toEqual([409, 'username is already taken']);
    expect((await edit('')).body.error).toBe('username: Username is required');
    expect((await edit('x'.repeat(41))).body.error).toBe('username: Username must be at most 40 characters long');
    expect((await detail(id)).username, 'refused edits change nothing').toBe('bob');
  });

  it('puts a user in groups: trimmed, each once, kept when an edit leaves them out; a bad name changes nothing', async () => {
    const api = as(admin.access);
    const bob = (await api.post('/api/v1/admin/users', { full_name: 'Bob', email: 'bob@example.com', password: 'Builder123' })).body.id as string;
    expect((await api.get(`/api/v1/admin/users/${bob}`)).body.groups).toEqual([]);
    const edit = (groups?: unknown) => api.put(`/api/v1/admin/users/${bob}`, { full_name: 'Bob', email: 'bob@example.com', phone_number: null, is_admin: false, ...(groups === undefined ? {} : { groups }) });

    expect((await edit([' family ', 'grafana-admins', 'family', 'Böse Buben'])).body.groups).toEqual(['family', 'grafana-admins', 'Böse Buben']);
    expect((await edit()).body.groups, 'left out: kept').toEqual(['family', 'grafana-admins', 'Böse Buben']);
    for (const [groups, error] of [
      [['ok', 'a,b'], 'groups.1: A group name is up to 64 letters, digits, spaces and . _ -, starting with a letter or digit'],
      [[''], 'groups.0: A group name is up to 64 letters, digits, spaces and . _ -, starting with a letter or digit'],
      [['x'.repeat(65)], 'groups.0: A group name is up to 64 letters, digits, spaces and . _ -, starting with a letter or digit'],
      [Array.from({ length: 51 }, (_, i) => `g${i}`), 'groups: At most 50 groups'],
      ['family', 'groups: Groups must be a list of names'],
    ] as const) {
      const refused = await edit(groups);
      expect([refused.status, refused.body.error]).toEqual([400, error]);
    }
    expect((await api.get(`/api/v1/admin/users/${bob}`)).body.groups).toEqual(['family', 'grafana-admins', 'Böse Buben']);
    expect((await edit([])).body.groups).toEqual([]);

    const created = await api.post('/api/v1/admin/users', { full_name: 'Cy', email: 'cy@example.com', password: 'Builder123', groups: ['family', 'family'] });
    expect(created.body.groups, 'set when added, too').toEqual(['family']);
    const refused = await api.post('/api/v1/admin/users', { full_name: 'Di', email: 'di@example.com', password: 'Builder123', groups: ['a,b'] });
    expect(refused.status).toBe(400);
    expect((await api.get('/api/v1/admin/users?search=di@')).body.items, 'nobody added').toEqual([]);
  });

  it('keeps the phone number when an edit leaves it out; null or blank removes it', async () => {
    const api = as(admin.access);
    const bob = (await api.post('/api/v1/admin/users', { full_name: 'Bob', email: 'bob@example.com', password: 'Builder123' })).body.id as string;
    const edit = (phone: Record<string, unknown>) => api.put(`/api/v1/admin/users/${bob}`, { full_name: 'Bob', email: 'bob@example.com', is_admin: false, ...phone });
    expect((await edit({ phone_number: ' +44 20 7946 0000 ' })).body.phone_number).toBe('+44 20 7946 0000');
    expect((await edit({})).body.phone_number, 'left out: kept').toBe('+44 20 7946 0000');
    const refused = await edit({ phone_number: 'call me' });
    expect([refused.status, refused.body.error]).toEqual([400, 'phone_number: Invalid phone number']);
    expect((await edit({ phone_number: '  ' })).body.phone_number, 'blank: removed').toBeNull();
    await edit({ phone_number: '0123 456' });
    expect((await edit({ phone_number: null })).body.phone_number, 'null: removed').toBeNull();
  });

  it('never demotes or deletes the last administrator', async () => {
    const api = as(admin.access);
    const demote = await api.put(`/api/v1/admin/users/${admin.id}`, { full_name: 'Ada Admin', email: admin.email, phone_number: null, is_admin: false });
    expect(demote.status).toBe(409);
    expect(demote.body.error).toBe('The last administrator cannot be demoted, disabled or deleted');
    // Deleting is refused sooner: nobody deletes their own account (admin-own-account.test.ts).
    expect((await api.delete(`/api/v1/admin/users/${admin.id}`)).status).toBe(409);
    expect((await api.get(`/api/v1/admin/users/${admin.id}`)).body.is_admin).toBe(true);
  });

  it('demotes or deletes a disabled administrator while one enabled administrator remains', async () => {
    const api = as(admin.access);
    const addDisabledAdmin = async (email: string) => {
      const created = await api.post('/api/v1/admin/users', { full_name: 'Old Admin', email, password: 'Builder123', is_admin: true });
      expect((await api.put(`/api/v1/admin/users/${created.body.id}/status`, { disabled: true })).status).toBe(200);
      return created.body.id as string;
    };
    const demoted = await addDisabledAdmin('old1@example.com');
    const demote = await api.put(`/api/v1/admin/users/${demoted}`, { full_name: 'Old Admin', email: 'old1@example.com', phone_number: null, is_admin: false });
    expect(demote.status).toBe(200);
    expect(demote.body.is_admin).toBe(false);
    const deleted = await addDisabledAdmin('old2@example.com');
    expect((await api.delete(`/api/v1/admin/users/${deleted}`)).status).toBeLessThan(300);
    expect((await api.get(`/api/v1/admin/users/${deleted}`)).status).toBe(404);
  });

  // Each request checks that another enabled administrator remains, then writes: two at once
  // must not each count on the other, leaving nobody to manage the rest.
  // Each administrator deletes the other: no one may delete their own account.
  it.each([
    ['both demoted', (other: string) => [
      () => as(admin.access).put(`/api/v1/admin/users/${other}`, { full_name: 'Bea Admin', email: 'bea@example.com', phone_number: null, is_admin: false }),
      () => as(admin.access).put(`/api/v1/admin/users/${admin.id}`, { full_name: 'Ada Admin', email: admin.email, phone_number: null, is_admin: false }),
    ]],
    ['one disabled as the other is deleted', (other: string, otherToken: string) => [
      () => as(admin.access).put(`/api/v1/admin/users/${other}/status`, { disabled: true }),
      () => as(otherToken).delete(`/api/v1/admin/users/${admin.id}`),
    ]],
    ['both disabled', (other: string, otherToken: string) => [
      () => as(admin.access).put(`/api/v1/admin/users/${other}/status`, { disabled: true }),
      () => as(otherToken).put(`/api/v1/admin/users/${admin.id}/status`, { disabled: true }),
    ]],
    ['both deleted', (other: string, otherToken: string) => [() => as(admin.access).delete(`/api/v1/admin/users/${other}`), () => as(otherToken).delete(`/api/v1/admin/users/${admin.id}`)]],
  ])('leaves one enabled administrator when two are taken away at once: %s', async (_, takeAwayBoth) => {
    const other = await as(admin.access).post('/api/v1/admin/users', { full_name: 'Bea Admin', email: 'bea@example.com', password: 'Builder123', is_admin: true });
    const otherToken = (await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: 'bea@example.com', password: 'Builder123' } })).body.access as string;
    const answers = await atOnce(takeAwayBoth(other.body.id as string, otherToken));
    const [won, lost] = [...answers].sort((a, b) => a.status - b.status);
    expect(won!.status).toBe(200);
    expect(lost).toMatchObject({ status: 409, body: { error: 'The last administrator cannot be demoted, disabled or deleted' } });
    const enabledAdmins = await t.db.selectFrom('users').select('id').where('is_admin', '=', 1).where('disabled_at', 'is', null).execute();
    expect(enabledAdmins).toHaveLength(1);
  });

  it("sets a user's password and signs them out everywhere", async () => {
    const api = as(admin.access);
    const bob = await registerAndLogin(t.app, { full_name: 'Bob Builder' });
    const refused = await api.put(`/api/v1/admin/users/${bob.id}/password`, { password: 'short' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('password: Password must be at least 8 characters long');
    expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: bob.access })).status, 'a refused password changes nothing').toBe(200);
    expect((await api.put('/api/v1/admin/users/nobody/password', { password: 'Brand-new1' })).status).toBe(404);

    expect((await api.put(`/api/v1/admin/users/${bob.id}/password`, { password: 'Brand-new1' })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: bob.access })).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/v1/auth/refresh', { token: bob.refresh })).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: bob.email, password: bob.password } })).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: bob.email, password: 'Brand-new1' } })).status).toBe(200);
  });

  it('answers 401 without a token and 403 to a non-admin, changing nothing, and logs each 403', async () => {
    await t.close();
    const lines: string[] = [];
    t = await startTestApp({}, { logger: { level: 'info', stream: { write: (line) => lines.push(line) } } });
    admin = await registerAndLogin(t.app);
    const regular = await registerAndLogin(t.app);
    const urls: Array<['GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH', string]> = [
      ['GET', '/api/v1/admin/users'],
      ['GET', `/api/v1/admin/users/${admin.id}`],
      ['POST', '/api/v1/admin/users'],
      ['PUT', `/api/v1/admin/users/${admin.id}`],
      ['DELETE', `/api/v1/admin/users/${admin.id}`],
      ['PUT', `/api/v1/admin/users/${admin.id}/password`],
      ['GET', '/api/v1/admin/user-sessions'],
      ['GET', '/api/v1/admin/service-sessions'],
      ['PATCH', '/api/v1/admin/user-sessions/revoke/x'],
      ['PATCH', '/api/v1/admin/service-sessions/revoke/x'],
    ];
    for (const [method, url] of urls) {
      const [signedOut, notAdmin] = [await call(t.app, method, url), await call(t.app, method, url, { token: regular.access, ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }) })];
      expect([signedOut.status, signedOut.body.error, signedOut.headers['www-authenticate']], url).toEqual([401, 'Authentication required', 'Bearer']);
      expect([notAdmin.status, notAdmin.body.error], url).toEqual([403, 'You are not allowed to do this']);
    }
    const refusals = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.msg === ADMIN_ROUTE_REFUSED);
    expect(refusals.map((entry) => `${entry.method} ${entry.path}`)).toEqual(urls.map(([method, url]) => `${method} ${url}`));
    expect(refusals.every((entry) => entry.level === 40 && entry.userId === regular.id && typeof entry.ip === 'string')).toBe(true);
    expect((await as(admin.access).get(`/api/v1/admin/users/${admin.id}`)).status).toBe(200);
  });
});

describe('sessions (admin)', () => {
  it('pages user sessions newest first, and revoking ends a session at once', async () => {
    const sessions = [];
    for (let i = 0; i < 12; i++) {
      t.advance(1000);
      const login = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: admin.email, password: admin.password } });
      sessions.push(login.body);
    }
    const api = as(admin.access);
    const first = await api.get('/api/v1/admin/user-sessions?page=1&size=10');
    expect(first.body.total_pages).toBe(2);
    expect(first.body.items).toHaveLength(10);
    const issued = first.body.items.map((s: { issued_at: string }) => s.issued_at);
    expect([...issued].sort().reverse()).toEqual(issued);
    expect(first.body.items[0]).toMatchObject({ user: { full_name: 'Ada Admin', profile_picture: null }, is_active: true, revoked_at: null });
    expect(JSON.parse(Buffer.from(first.body.items[0].device_info, 'base64').toString())).toHaveProperty('browser');
    expect((await api.get('/api/v1/admin/user-sessions?page=2&size=10')).body.items).toHaveLength(3);
    expect((await api.get('/api/v1/admin/user-sessions?page=0')).status).toBe(400);
    // Sent without a value, page and size are as if left out: the first page of ten.
    expect((await api.get('/api/v1/admin/user-sessions?page=&size=')).body).toEqual(first.body);

    const newest = first.body.items[0].id;
    expect((await api.patch(`/api/v1/admin/user-sessions/revoke/${newest}`)).status).toBe(200);
    const after = (await api.get('/api/v1/admin/user-sessions?page=1&size=10')).body.items[0];
    expect(after).toMatchObject({ id: newest, is_active: false });
    expect(after.revoked_at).not.toBeNull();
    expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: sessions.at(-1)!.access })).status).toBe(401);
    expect((await api.patch('/api/v1/admin/user-sessions/revoke/unknown')).status).toBe(404);
  });

  it('lists service sessions (empty here) with total_pages 0', async () => {
    expect((await as(admin.access).get('/api/v1/admin/service-sessions')).body).toEqual({ items: [], total_pages: 0 });
  });
});
