import * as client from 'openid-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccountsService } from '../../server/accounts/accounts-service';
import { LOGIN_THROTTLE } from '../../server/accounts/sign-in';
import { UsersRepository } from '../../server/accounts/users-repository';
import { ServiceSessionsRepository } from '../../server/oauth/service-sessions-repository';
import { oidcJson, startOidcFixture } from '../support/oidc-fixture';
import { call, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

// Changing one's own password, from the signed-in account (accounts.test.ts has registration and sign-in).

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => t.close());

describe("changing one's password", () => {
  const change = (token: string, body: unknown) => call(t.app, 'POST', '/api/v1/auth/password', { token, body });
  const login = (email: string, password: string) => call(t.app, 'POST', '/api/v1/auth/login', { body: { email, password } });

  it('needs the current password, keeps this session and ends the others', async () => {
    const user = await registerAndLogin(t.app);
    const elsewhere = await login(user.email, user.password);
    const hashBefore = (await t.db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow()).password_hash;

    const refusals: Array<[unknown, string]> = [
      [{ password: 'Brand-new1' }, 'current_password: Current password is required'],
      [{ current_password: user.password, password: 'short' }, 'password: Password must be at least 8 characters long'],
      [{ current_password: 'Not-it-at-all1', password: 'Brand-new1' }, 'The current password is wrong'],
    ];
    for (const [body, message] of refusals) {
      const refused = await change(user.access, body);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe(message);
    }
    expect((await change('not-a-token', { current_password: user.password, password: 'Brand-new1' })).status).toBe(401);
    const unchanged = await t.db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(unchanged.password_hash, 'a refusal changes nothing').toBe(hashBefore);
    expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: elsewhere.body.access })).status).toBe(200);

    expect((await change(user.access, { current_password: user.password, password: 'Brand-new1' })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: user.access })).status, 'this session goes on').toBe(200);
    expect((await call(t.app, 'POST', '/api/v1/auth/refresh', { token: user.refresh })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: elsewhere.body.access })).status, 'the others end').toBe(401);
    expect((await login(user.email, user.password)).status).toBe(401);
    expect((await login(user.email, 'Brand-new1')).status).toBe(200);
  });

  it('stores the new password and ends the other sessions in one commit: a failure between them changes nothing', async () => {
    const { db, sessions, throttle, notify, authenticatorApps, clock } = t.app.services;
    const user = await registerAndLogin(t.app);
    const elsewhere = await login(user.email, user.password);
    // The last sign-out fails, as when the database connection drops or the process is killed there.
    class FailingServiceSessions extends ServiceSessionsRepository {
      override async revokeAllForUser(): Promise<number> {
        throw new Error('connection lost');
      }
    }
    const failing = new AccountsService(new UsersRepository(db), sessions, new FailingServiceSessions(db), throttle, authenticatorApps, t.app.services.signIn, { registration: 'open', log: t.app.log, notify }, clock);
    await expect(failing.setPassword(user.id, 'Brand-new1', 'changed')).rejects.toThrow('connection lost');
    expect((await call(t.app, 'POST', '/api/v1/auth/refresh', { token: elsewhere.body.refresh })).status, 'the other session goes on').toBe(200);
    expect((await login(user.email, user.password)).status, 'the old password still works').toBe(200);
    expect((await login(user.email, 'Brand-new1')).status).toBe(401);

    await t.app.services.accounts.setPassword(user.id, 'Brand-new1', 'changed');
    expect((await login(user.email, 'Brand-new1')).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: user.access })).status, 'every session ends').toBe(401);
  });

  it('throttles wrong current passwords together with failed sign-ins of the account', async () => {
    const user = await registerAndLogin(t.app);
    for (let i = 0; i < 3; i++) expect((await login(user.email, `Wrong-${i}`)).status).toBe(401);
    for (let i = 0; i < 2; i++) expect((await change(user.access, { current_password: `Wrong-again-${i}`, password: 'Brand-new1' })).status).toBe(400);
    const throttled = await change(user.access, { current_password: user.password, password: 'Brand-new1' });
    expect(throttled.status).toBe(429);
    expect((await login(user.email, user.password)).status).toBe(429);
    t.advance(61_000);
    expect((await change(user.access, { current_password: user.password, password: 'Brand-new1' })).status).toBe(200);
  });

  it('judges no more current-password guesses than the limit when they come all at once', async () => {
    const user = await registerAndLogin(t.app);
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => change(user.access, { current_password: `Wrong-${i}`, password: 'Brand-new1' })));
    const statuses = burst.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 400)).toHaveLength(LOGIN_THROTTLE.account.limit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(12 - LOGIN_THROTTLE.account.limit);
  });

  it('does not count a right current password as a failure', async () => {
    const user = await registerAndLogin(t.app);
    const spare = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password } });
    let password = user.password;
    for (let i = 0; i < LOGIN_THROTTLE.account.limit + 2; i++) {
      const next = `Brand-new${i}A`;
      expect((await change(spare.body.access, { current_password: password, password: next })).status).toBe(200);
      password = next;
    }
  });

  it('signs the account out of every service too, whoever sets it: their tokens stop working (ASVS 3.3.3)', async () => {
    const f = await startOidcFixture();
    try {
      const config = await f.relyingParty(await f.createService());
      const signedIn = async (token = f.user.access) => (await f.signInToService(config, { scope: 'openid email offline_access', token })).tokens;
      const userinfo = async (access: string) => (await oidcJson(f.issuer, 'GET', '/api/v1/oauth/userinfo', undefined, access)).status;
      const endedAt = async (tokens: Awaited<ReturnType<typeof signedIn>>) => {
        expect(await userinfo(tokens.access_token), 'its access token is refused').toBe(401);
        await expect(client.refreshTokenGrant(config, tokens.refresh_token!), 'its refresh token is refused').rejects.toMatchObject({ error: 'invalid_grant' });
      };
      const before = await signedIn();
      const others = await signedIn(f.adminToken);
      expect(await userinfo(before.access_token)).toBe(200);

      const changed = await oidcJson(f.issuer, 'POST', '/api/v1/auth/password', { current_password: f.user.password, password: 'Changed-it1' }, f.user.access);
      expect(changed.status).toBe(200);
      await endedAt(before);
      expect((await oidcJson(f.issuer, 'GET', '/api/v1/auth/profile', undefined, f.user.access)).status, 'the Home Guard session it was changed from goes on').toBe(200);
      expect(await userinfo(others.access_token), "someone else's services stay signed in").toBe(200);

      // Signed in again through that session; an administrator's new password, then the command line's, end it as well.
      const again = await signedIn();
      expect(await userinfo(again.access_token)).toBe(200);
      const id = (await oidcJson(f.issuer, 'GET', '/api/v1/auth/profile', undefined, f.user.access)).body.id as string;
      expect((await oidcJson(f.issuer, 'PUT', `/api/v1/admin/users/${id}/password`, { password: 'Admin-set33' }, f.adminToken)).status).toBe(200);
      await endedAt(again);
      const signedInAgain = (await oidcJson(f.issuer, 'POST', '/api/v1/auth/login', { email: f.user.email, password: 'Admin-set33' })).body.access as string;
      const third = await signedIn(signedInAgain);
      await f.t.app.services.accounts.resetPassword(f.user.email, 'Command-line44');
      await endedAt(third);
      expect(await userinfo(others.access_token)).toBe(200);
    } finally {
      await f.close();
    }
  });
});
