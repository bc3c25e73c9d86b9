import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, callsWith, registerAndLogin, startTestApp, turnOnTwoStep, type TestApp } from '../support/test-app';

let t: TestApp;
let admin: Awaited<ReturnType<typeof registerAndLogin>>;
beforeEach(async () => {
  t = await startTestApp();
  admin = await registerAndLogin(t.app, { full_name: 'Ada Admin' });
});
afterEach(async () => t.close());

const PERSONAL_INFO = 'Change your own password or two-step sign-in from Personal Info, which asks for your current password';

const as = (token: string) => callsWith(t.app, token);

describe("an administrator's own account in the admin area (ASVS 3.7.1)", () => {
  it.each([
    ['set their password', () => call(t.app, 'PUT', `/api/v1/admin/users/${admin.id}/password`, { token: admin.access, body: { password: 'Taken-over1' } }), [409, PERSONAL_INFO]],
    ['turn off their two-step sign-in', () => call(t.app, 'DELETE', `/api/v1/admin/users/${admin.id}/two-step`, { token: admin.access, body: {} }), [409, PERSONAL_INFO]],
    ['change their email', () => call(t.app, 'PUT', `/api/v1/admin/users/${admin.id}`, { token: admin.access, body: { full_name: 'Ada Admin', email: 'thief@example.com', is_admin: true } }), [400, 'Type your current password to change your own email']],
    ['delete their account', () => call(t.app, 'DELETE', `/api/v1/admin/users/${admin.id}`, { token: admin.access }), [409, 'You cannot delete your own account']],
    ['change their email with a wrong password', () => call(t.app, 'PUT', `/api/v1/admin/users/${admin.id}`, { token: admin.access, body: { full_name: 'Ada Admin', email: 'thief@example.com', is_admin: true, current_password: 'Guessed-1' } }), [400, 'The current password is wrong']],
  ])('refuses to %s there, changing nothing', async (_, attempt, answer) => {
    const elsewhere = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: admin.email, password: admin.password } });
    await turnOnTwoStep(t, admin);
    const stored = () => t.db.selectFrom('users').select(['password_hash', 'email', 'email_verified', 'full_name']).where('id', '=', admin.id).executeTakeFirstOrThrow();
    const before = await stored();

    const refused = await attempt();
    expect([refused.status, refused.body.error]).toEqual(answer);
    expect(await stored(), 'nothing changed').toEqual(before);
    expect((await as(admin.access).get(`/api/v1/admin/users/${admin.id}`)).body.two_step_enabled).toBe(true);
    expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: elsewhere.body.access })).status, 'no other session ended').toBe(200);
    const events = await t.db.selectFrom('audit_events').select('kind').where('user_id', '=', admin.id).execute();
    expect(events.map((event) => event.kind).filter((kind) => ['password-changed', 'two-step-off', 'account-changed'].includes(kind))).toEqual([]);
  });

  it('still renames them, keeps their email written another way, and lets them give up being an administrator', async () => {
    const me = `/api/v1/admin/users/${admin.id}`;
    const api = as(admin.access);
    const renamed = await api.put(me, { full_name: 'Ada King', email: admin.email.toUpperCase(), phone_number: '+1 555', is_admin: true });
    expect([renamed.status, renamed.body.full_name, renamed.body.email, renamed.body.phone_number]).toEqual([200, 'Ada King', admin.email, '+1 555']);
    await api.post('/api/v1/admin/users', { full_name: 'Bea Admin', email: 'bea@example.com', password: 'Builder123', is_admin: true });
    const demoted = await api.put(me, { full_name: 'Ada King', email: admin.email, is_admin: false });
    expect([demoted.status, demoted.body.is_admin]).toEqual([200, false]);
  });

  it('changes their own email with their current password, as Personal Info would ask for it', async () => {
    const changed = await as(admin.access).put(`/api/v1/admin/users/${admin.id}`, { full_name: 'Ada Admin', email: 'ada.moved@example.com', is_admin: true, current_password: admin.password });
    expect([changed.status, changed.body.email, changed.body.email_verified]).toEqual([200, 'ada.moved@example.com', false]);
  });

  it("leaves another administrator free to do all three to them, as for anyone's account", async () => {
    await turnOnTwoStep(t, admin);
    await as(admin.access).post('/api/v1/admin/users', { full_name: 'Bea Admin', email: 'bea@example.com', password: 'Builder123', is_admin: true });
    const beaSession = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: 'bea@example.com', password: 'Builder123' } });
    const api = as(beaSession.body.access as string);
    const ada = `/api/v1/admin/users/${admin.id}`;
    expect((await call(t.app, 'DELETE', `${ada}/two-step`, { token: beaSession.body.access, body: {} })).body.two_step_enabled).toBe(false);
    expect((await api.put(ada, { full_name: 'Ada Admin', email: 'ada.new@example.com', is_admin: true })).body.email).toBe('ada.new@example.com');
    // A current password is asked for one's own email only: sent with another's edit, it is not checked.
    expect((await api.put(ada, { full_name: 'Ada Admin', email: 'ada.new@example.com', is_admin: true, current_password: 'Wrong-guess1' })).status).toBe(200);
    expect((await api.put(`${ada}/password`, { password: 'Brand-new1' })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: 'ada.new@example.com', password: 'Brand-new1' } })).status).toBe(200);
    expect((await api.delete(ada)).status).toBe(200);
  });
});
