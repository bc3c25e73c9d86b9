import * as client from 'openid-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SignIn } from '../../server/accounts/sign-in';
import { UsersRepository } from '../../server/accounts/users-repository';
import type { Authenticated, UserSessionsService } from '../../server/sessions/user-sessions-service';
import { oidcJson, startOidcFixture, type OidcFixture } from '../support/oidc-fixture';

let f: OidcFixture;
beforeEach(async () => {
  f = await startOidcFixture();
});
afterEach(async () => f.close());

const admin = (method: string, url: string, body?: unknown) => oidcJson(f.issuer, method, url, body, f.adminToken);
const login = (email: string, password: string) => oidcJson(f.issuer, 'POST', '/api/v1/auth/login', { email, password });
const setDisabled = (userId: string, disabled: unknown) => admin('PUT', `/api/v1/admin/users/${userId}/status`, { disabled });
const sessionsOf = async (userId: string) => (await f.t.db.selectFrom('user_sessions').select('revoked_at').where('user_id', '=', userId).execute()).length;

/** The user signed in to a service: its tokens, from a real code exchange. */
async function signedInToService() {
  const config = await f.relyingParty(await f.createService());
  const { tokens } = await f.signInToService(config, { scope: 'openid email offline_access' });
  return { config, tokens, sub: tokens.claims()!.sub };
}

describe('disabled accounts', () => {
  it('are signed out of Home Guard and of every service at once, and cannot sign in until enabled again', async () => {
    const device = (await login(f.user.email, f.user.password)).body;
    const { config, tokens, sub } = await signedInToService();
    expect((await client.fetchUserInfo(config, tokens.access_token, sub)).email).toBe(f.user.email);

    const disabled = await setDisabled(device.id, true);
    expect(disabled.status).toBe(200);
    expect(Date.parse(disabled.body.disabled_at)).not.toBeNaN();
    expect((await oidcJson(f.issuer, 'GET', '/api/v1/auth/profile', undefined, device.access)).status).toBe(401);
    expect((await oidcJson(f.issuer, 'POST', '/api/v1/auth/refresh', {}, device.refresh)).status).toBe(401);
    await expect(client.fetchUserInfo(config, tokens.access_token, sub)).rejects.toThrow();
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });

    // Told only with the right password (a wrong one gets the usual answer), and no session is opened for it.
    const opened = await sessionsOf(device.id);
    expect(await login(f.user.email, f.user.password)).toMatchObject({ status: 403, body: { error: 'This account is disabled; ask an administrator to enable it' } });
    expect(await sessionsOf(device.id)).toBe(opened);
    expect((await login(f.user.email, 'Wrong-pass1')).status).toBe(401);
    const listed = (await admin('GET', '/api/v1/admin/users')).body.items.find((user: { id: string }) => user.id === device.id);
    expect(listed.disabled_at).toBe(disabled.body.disabled_at);
    // Asked again, it stays disabled since the first time.
    expect((await setDisabled(device.id, true)).body.disabled_at).toBe(disabled.body.disabled_at);

    const enabled = await setDisabled(device.id, false);
    expect([enabled.status, enabled.body.disabled_at, enabled.body.email]).toEqual([200, null, f.user.email]);
    expect((await login(f.user.email, f.user.password)).status).toBe(200);
  });

  it('keeps the account out even when its sign-outs were cut short, and disabling again finishes them', async () => {
    const device = (await login(f.user.email, f.user.password)).body;
    const { config, tokens } = await signedInToService();
    // As after a crash between the two, or a service session opened by a code exchanged while the
    // account was being disabled: the account is disabled, its sessions are not ended.
    await f.t.db.updateTable('users').set({ disabled_at: f.t.app.services.clock() }).where('id', '=', device.id).execute();
    expect((await oidcJson(f.issuer, 'GET', '/api/v1/auth/profile', undefined, device.access)).status).toBe(401);
    expect((await oidcJson(f.issuer, 'GET', '/api/v1/oauth/userinfo', undefined, tokens.access_token)).status).toBe(401);
    expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant', error_description: 'The account is disabled' });

    expect((await setDisabled(device.id, true)).status).toBe(200);
    const open = await f.t.db.selectFrom('user_sessions').select('id').where('user_id', '=', device.id).where('revoked_at', 'is', null).execute();
    expect(open).toEqual([]);
    expect((await oidcJson(f.issuer, 'POST', '/api/v1/auth/refresh', {}, device.refresh)).status).toBe(401);
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('changes nothing when asked for the state it is in: an enabled account stays signed in, a disabled one keeps the time it was disabled', async () => {
    const device = (await login(f.user.email, f.user.password)).body;
    const { config, tokens } = await signedInToService();
    expect((await setDisabled(device.id, false)).body.disabled_at).toBeNull();
    expect((await oidcJson(f.issuer, 'GET', '/api/v1/auth/profile', undefined, device.access)).status).toBe(200);
    expect((await client.refreshTokenGrant(config, tokens.refresh_token!)).access_token).toEqual(expect.any(String));

    const disabledAt = (await setDisabled(device.id, true)).body.disabled_at;
    f.t.advance(60_000);
    expect((await setDisabled(device.id, true)).body.disabled_at).toBe(disabledAt);
    const logged = await f.t.db.selectFrom('audit_events').select('kind').where('user_id', '=', device.id).where('kind', 'in', ['account-disabled', 'account-enabled']).execute();
    expect(logged.map((event) => event.kind)).toEqual(['account-disabled']);
  });

  it('never lets administrators disable themselves, nor leave no enabled administrator', async () => {
    const me = (await admin('GET', '/api/v1/auth/profile')).body;
    expect(await setDisabled(me.id, true)).toMatchObject({ status: 409, body: { error: 'You cannot disable your own account' } });
    expect(await setDisabled(me.id, 'yes')).toMatchObject({ status: 400, body: { error: 'disabled: must be true or false' } });
    expect((await setDisabled('00000000-0000-0000-0000-000000000000', true)).status).toBe(404);
    expect((await oidcJson(f.issuer, 'PUT', `/api/v1/admin/users/${me.id}/status`, { disabled: true }, f.user.access)).status).toBe(403);

    // Another administrator, disabled: this one is still the last enabled one, so it stays.
    const other = (await admin('POST', '/api/v1/admin/users', { full_name: 'Second Admin', email: 'second@oidc.test', password: 'Second-pass1', is_admin: true })).body;
    expect((await setDisabled(other.id, true)).status).toBe(200);
    expect((await admin('DELETE', `/api/v1/admin/users/${me.id}`)).status).toBe(409);
    expect((await admin('PUT', `/api/v1/admin/users/${me.id}`, { full_name: 'Admin', email: me.email, phone_number: null, is_admin: false })).status).toBe(409);
    expect((await setDisabled(other.id, false)).status).toBe(200);
    expect((await admin('PUT', `/api/v1/admin/users/${me.id}`, { full_name: 'Admin', email: me.email, phone_number: null, is_admin: false })).status).toBe(200);
  });

  it('leaves no session behind when disabled between the password check and the new session', async () => {
    const { sessions, throttle, notify, audit, authenticatorApps, clock, usersAdmin } = f.t.app.services;
    const userId = (await login(f.user.email, f.user.password)).body.id as string;
    const administrator = { userId: 'another-administrator' } as Authenticated;
    // The administrator's whole change (mark, then sign out everywhere) lands just before the session is opened.
    const racing = Object.create(sessions, {
      start: { value: async (...args: Parameters<UserSessionsService['start']>) => (await usersAdmin.setDisabled(userId, true, administrator), sessions.start(...args)) },
    }) as UserSessionsService;
    const signIn = new SignIn(new UsersRepository(f.t.db), racing, throttle, authenticatorApps, { log: f.t.app.log, notify, audit, background: f.t.app.services.background }, clock);
    await expect(signIn.login(f.user.email, f.user.password, undefined, { userAgent: undefined, ip: undefined })).rejects.toThrow('This account is disabled');
    const live = await f.t.db.selectFrom('user_sessions').select('id').where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
    expect(live).toEqual([]);
    const refusals = await f.t.db.selectFrom('audit_events').select('detail').where('user_id', '=', userId).where('kind', '=', 'sign-in-refused').execute();
    expect(refusals).toEqual([{ detail: 'disabled' }]);
  });
});
