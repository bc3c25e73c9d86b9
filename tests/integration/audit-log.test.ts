import * as client from 'openid-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../contract/audit';
import { totpCode, totpStep } from '../../server/two-step/totp';
import { describeDevice } from '../../server/sessions/device-info';
import { oidcJson, startOidcFixture, type OidcFixture } from '../support/oidc-fixture';

let f: OidcFixture;
beforeEach(async () => {
  f = await startOidcFixture();
});
afterEach(async () => f.close());

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
const as = (token: string | undefined, method: string, url: string, body?: unknown) => oidcJson(f.issuer, method, url, body, token);
const admin = (method: string, url: string, body?: unknown) => as(f.adminToken, method, url, body);
const login = (email: string, password: string, code?: string) =>
  fetch(`${f.issuer}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': FIREFOX }, body: JSON.stringify({ email, password, code }) });
/** The log as an administrator pages it, newest first: kind and detail of each. */
const adminLog = async (query = '') => (await admin('GET', `/api/v1/admin/audit-log?size=100${query}`)).body.items as AuditEvent[];
const kinds = (events: AuditEvent[]) => events.map((event) => (event.detail === null ? event.kind : `${event.kind}: ${event.detail}`));
const ownActivity = async (token: string) => (await as(token, 'GET', '/api/v1/auth/activity')).body.items as AuditEvent[];

describe('the audit log', () => {
  it('records a person\'s sign-ins, refused ones and security changes, which they see of their own account', async () => {
    expect((await login(f.user.email, 'Wrong-pass1')).status).toBe(401);
    const signedIn = await login(f.user.email, f.user.password);
    const access = ((await signedIn.json()) as { access: string }).access;
    expect((await as(access, 'POST', '/api/v1/auth/password', { current_password: f.user.password, password: 'Changed-pass2' })).status).toBe(200);
    // Refused sign-ins are recorded without holding up the answer.
    await expect.poll(async () => kinds(await ownActivity(access)).includes('sign-in-refused: wrong-password')).toBe(true);

    const own = await ownActivity(access);
    // Newest first; the fixture's sign-ins before these, and the registration first of all.
    expect(kinds(own).slice(0, 3)).toEqual(['password-changed: changed', 'signed-in: pwd', 'sign-in-refused: wrong-password']);
    expect(kinds(own).at(-1)).toBe('account-created: registered');
    const signIn = own[1]!;
    expect(signIn).toMatchObject({ user: { full_name: 'Olivia Ident', email: f.user.email }, actor_id: signIn.user_id, ip_address: '127.0.0.1', service: null });
    expect(describeDevice(signIn.device_info!)).toBe('Firefox on Linux');
    // Nobody else's events, and only for a signed-in account.
    const admins = await ownActivity(f.adminToken);
    expect(admins.length).toBeGreaterThan(1);
    expect(admins.every((event) => event.user?.full_name === 'Admin')).toBe(true);
    expect((await as(undefined, 'GET', '/api/v1/auth/activity')).status).toBe(401);
  });

  it('records two-step changes and tells a wrong code from a disabled account', async () => {
    const access = f.user.access;
    const setup = await as(access, 'POST', '/api/v1/auth/two-step/setup', {});
    const secret = setup.body.secret as string;
    const code = (steps = 0) => totpCode(secret, totpStep(f.t.app.services.clock()) + steps);
    expect((await as(access, 'PUT', '/api/v1/auth/two-step', { secret, code: code(), current_password: f.user.password })).status).toBe(200);
    expect((await as(access, 'POST', '/api/v1/auth/two-step/recovery-codes', { current_password: f.user.password })).status).toBe(200);
    expect((await login(f.user.email, f.user.password, '000000')).status).toBe(401);
    expect((await login(f.user.email, f.user.password, code(1))).status).toBe(200);
    const me = (await as(access, 'GET', '/api/v1/auth/profile')).body.id as string;
    expect((await admin('DELETE', `/api/v1/admin/users/${me}/two-step`, {})).status).toBe(200);
    expect((await admin('PUT', `/api/v1/admin/users/${me}/status`, { disabled: true })).status).toBe(200);
    expect((await login(f.user.email, f.user.password)).status).toBe(403);

    const events = await adminLog(`&user_id=${me}`);
    expect(kinds(events).slice(0, 7)).toEqual([
      'sign-in-refused: disabled', 'account-disabled', 'two-step-off', 'signed-in: pwd otp mfa', 'sign-in-refused: wrong-code', 'recovery-codes-renewed', 'two-step-on',
    ]);
    // Who acted: the person, the administrator for them, or (refused) someone not known to be them.
    const adminId = (await admin('GET', '/api/v1/auth/profile')).body.id as string;
    expect(events.slice(0, 7).map((event) => event.actor_id)).toEqual([null, adminId, adminId, me, null, me, me]);
    expect(events[1]!.actor).toEqual({ full_name: 'Admin' });
  });

  it('records what administrators do to accounts and services, and who they were after deletion', async () => {
    const created = await admin('POST', '/api/v1/admin/users', { full_name: 'Tom Temp', email: 'tom@oidc.test', password: 'Tom-pass12' });
    const tom = created.body.id as string;
    const edit = { full_name: 'Tom Temp', email: 'tom@oidc.test', phone_number: null, is_admin: false };
    expect((await admin('PUT', `/api/v1/admin/users/${tom}`, { ...edit, is_admin: true, groups: ['family'] })).status).toBe(200);
    expect((await admin('PUT', `/api/v1/admin/users/${tom}`, { ...edit, is_admin: true })).status, 'an edit that changes nothing is not recorded').toBe(200);
    expect((await admin('PUT', `/api/v1/admin/users/${tom}/password`, { password: 'Tom-pass34' })).status).toBe(200);
    expect((await admin('PUT', `/api/v1/admin/users/${tom}/status`, { disabled: true })).status).toBe(200);
    expect((await admin('PUT', `/api/v1/admin/users/${tom}/status`, { disabled: true })).status, 'nor one asking for the state it is in').toBe(200);
    expect((await admin('PUT', `/api/v1/admin/users/${tom}/status`, { disabled: false })).status).toBe(200);
    expect((await admin('PUT', `/api/v1/admin/users/${tom}`, { ...edit, full_name: 'Tom Later', email: 'tom.l@oidc.test', groups: ['family'] })).status).toBe(200);
    expect((await admin('DELETE', `/api/v1/admin/users/${tom}`)).status).toBe(200);

    const tomsEvents = await adminLog(`&user_id=${tom}`);
    expect(kinds(tomsEvents)).toEqual([
      'account-deleted: Tom Later <tom.l@oidc.test>', 'account-changed: full_name, email:tom@oidc.test:tom.l@oidc.test, admin-removed', 'account-enabled', 'account-disabled', 'password-changed: set-by-administrator', 'account-changed: made-admin, groups', 'account-created',
    ]);
    expect(tomsEvents.every((event) => event.user === null && event.actor?.full_name === 'Admin')).toBe(true);
    expect(kinds(await adminLog('&search=TOM.L@oidc')), 'a deleted account is found, with all its events, by the name and address its deletion recorded').toEqual(kinds(tomsEvents));
    expect(kinds(await adminLog('&search=tom later')), 'by its name too').toEqual(kinds(tomsEvents));
    expect(kinds(await adminLog('&search=tom@oidc')), 'and the line naming the address it had before').toEqual(['account-changed: full_name, email:tom@oidc.test:tom.l@oidc.test, admin-removed']);

    // A service, and a person signing in to it.
    const service = await f.createService({ name: 'Gitea' });
    await f.signInToService(await f.relyingParty(service));
    expect((await admin('POST', `/api/v1/admin/api-services/${service.id}/credentials`, {})).status).toBe(200);
    expect((await admin('PATCH', `/api/v1/admin/api-services/toggle/${service.id}`, {})).status).toBe(200);
    const serviceEvents = (await adminLog('&search=gitea')).filter((event) => event.service_id === service.id);
    expect(kinds(serviceEvents)).toEqual(['service-turned-off: Gitea', 'service-credentials-regenerated: Gitea', 'service-signed-in', 'service-created: Gitea']);
    expect(serviceEvents[2]).toMatchObject({ user: { full_name: 'Olivia Ident' }, service: { name: 'Gitea', icon_url: null } });
    // Deleted, it is found by the name its deletion recorded, with its earlier events.
    expect((await admin('DELETE', `/api/v1/admin/api-services/${service.id}`)).status).toBe(200);
    const afterDeletion = (await adminLog('&search=gitea')).filter((event) => event.service_id === service.id);
    expect(kinds(afterDeletion)).toEqual(['service-deleted: Gitea', ...kinds(serviceEvents)]);
    expect(afterDeletion.every((event) => event.service === null)).toBe(true);
  });

  it('shows a person what an administrator did to their account but not who, nor from where; their own, from where', async () => {
    const me = (await as(f.user.access, 'GET', '/api/v1/auth/profile')).body.id as string;
    const adminId = (await admin('GET', '/api/v1/auth/profile')).body.id as string;
    // The administrator acts from their own address and browser.
    const edited = await f.t.app.inject({
      method: 'PUT', url: `/api/v1/admin/users/${me}`, remoteAddress: '10.9.8.7', headers: { authorization: `Bearer ${f.adminToken}`, 'user-agent': SAFARI },
      payload: { full_name: 'Olivia Renamed', email: f.user.email, phone_number: null, is_admin: false },
    });
    expect(edited.statusCode).toBe(200);
    f.t.advance(1000);
    expect((await login(f.user.email, f.user.password)).status).toBe(200);

    const [signIn, changed] = await ownActivity(f.user.access);
    expect(kinds([signIn!, changed!])).toEqual(['signed-in: pwd', 'account-changed: full_name']);
    expect(changed, 'by an administrator: not who, nor from where').toMatchObject({ actor_id: adminId, actor: null, ip_address: null, device_info: null });
    expect(signIn).toMatchObject({ actor_id: me, ip_address: '127.0.0.1' });
    expect(describeDevice(signIn!.device_info!)).toBe('Firefox on Linux');
    // The audit log keeps it all for administrators.
    const logged = (await adminLog(`&user_id=${me}`)).find((event) => event.kind === 'account-changed')!;
    expect(logged).toMatchObject({ actor: { full_name: 'Admin' }, ip_address: '10.9.8.7' });
    expect(logged.device_info).not.toBeNull();
  });

  it('records a code or refresh token presented twice, and from where, as the session it ends: once, however often it comes again', async () => {
    const first = (await (await login(f.user.email, f.user.password)).json()) as { refresh: string };
    expect((await as(first.refresh, 'POST', '/api/v1/auth/refresh', {})).status).toBe(200);
    f.t.advance(31_000); // past the grace for an answer lost on the way
    expect((await as(first.refresh, 'POST', '/api/v1/auth/refresh', {})).status).toBe(401);

    const config = await f.relyingParty(await f.createService({ name: 'Immich' }));
    const byCode = await f.signInToService(config);
    await expect(client.authorizationCodeGrant(config, byCode.callback, { pkceCodeVerifier: byCode.verifier })).rejects.toMatchObject({ error: 'invalid_grant' });
    const { tokens } = await f.signInToService(config);
    await client.refreshTokenGrant(config, tokens.refresh_token!);
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    // Presented again and again: recorded once, by the replay that ended the session, not once a try.
    for (let i = 0; i < 3; i++) {
      await expect(client.authorizationCodeGrant(config, byCode.callback, { pkceCodeVerifier: byCode.verifier })).rejects.toMatchObject({ error: 'invalid_grant' });
      await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    }

    const reused = (await adminLog()).filter((event) => event.kind === 'token-reused');
    expect(kinds(reused)).toEqual(['token-reused: refresh-token', 'token-reused: code', 'token-reused: refresh-token']);
    expect(reused.map((event) => event.service?.name ?? null)).toEqual(['Immich', 'Immich', null]);
    expect(reused.every((event) => event.user?.full_name === 'Olivia Ident' && event.actor_id === null && event.ip_address === '127.0.0.1')).toBe(true);
    // Done by no one signed in, so not hidden as an administrator's act: the owner sees from where.
    const seenByOwner = (await ownActivity(f.user.access)).filter((event) => event.kind === 'token-reused');
    expect(seenByOwner.map((event) => [event.detail, event.ip_address])).toEqual([['refresh-token', '127.0.0.1'], ['code', '127.0.0.1'], ['refresh-token', '127.0.0.1']]);
  });

  it('records a person signing out of their device once, and nothing for a token that ends no session', async () => {
    const { refresh } = (await (await login(f.user.email, f.user.password)).json()) as { refresh: string };
    const signOut = (token: string) =>
      fetch(`${f.issuer}/api/v1/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'user-agent': FIREFOX }, body: '{}' });
    const signOuts = async () => (await adminLog('&group=sign-ins')).filter((event) => event.kind === 'signed-out');
    expect((await signOut(refresh)).status).toBe(200);
    expect(await signOuts(), 'recorded by the sign-out that ended the session').toHaveLength(1);
    expect((await signOut(refresh)).status).toBe(200); // already signed out
    expect((await signOut('not-a-token')).status).toBe(200);
    expect((await as(refresh, 'POST', '/api/v1/auth/refresh', {})).status).toBe(401);

    const signedOut = await signOuts();
    expect(signedOut).toHaveLength(1);
    expect(signedOut[0]).toMatchObject({ user: { full_name: 'Olivia Ident' }, actor_id: signedOut[0]!.user_id, ip_address: '127.0.0.1' });
    expect(describeDevice(signedOut[0]!.device_info!)).toBe('Firefox on Linux');
    expect(kinds(await ownActivity(f.user.access))[0]).toBe('signed-out');
  });

  it("records a person's own sign-outs under Personal Info: the other devices (when there were any), one device, and a service or only its approval", async () => {
    const own = async (count: number) => kinds(await ownActivity(f.user.access)).slice(0, count);
    const sessions = async () => (await as(f.user.access, 'GET', '/api/v1/auth/sessions')).body.items as Array<{ id: string; current: boolean }>;
    for (let i = 0; i < 2; i++) expect((await login(f.user.email, f.user.password)).status).toBe(200);
    const others = (await sessions()).length - 1;
    expect((await as(f.user.access, 'DELETE', '/api/v1/auth/sessions', {})).body).toEqual({ signed_out: others });
    expect((await as(f.user.access, 'DELETE', '/api/v1/auth/sessions', {})).body).toEqual({ signed_out: 0 });
    expect(await own(2), 'nothing for signing out no device').toEqual([`user-session-revoked: other-devices:${others}`, 'signed-in: pwd']);

    expect((await login(f.user.email, f.user.password)).status).toBe(200);
    expect((await as(f.user.access, 'DELETE', `/api/v1/auth/sessions/${(await sessions()).find((session) => !session.current)!.id}`, {})).status).toBe(200);
    expect(await own(1)).toEqual(['user-session-revoked']);

    const [grafana, outline] = [await f.createService({ name: 'Grafana' }), await f.createService({ name: 'Outline' })];
    await f.signInToService(await f.relyingParty(grafana));
    const { tokens } = await f.signInToService(await f.relyingParty(outline));
    expect((await as(undefined, 'POST', '/api/v1/oauth/end-session', { id_token_hint: tokens.id_token })).status).toBe(200); // Outline's session ends; its approval stays
    for (const service of [grafana, outline]) expect((await as(f.user.access, 'DELETE', `/api/v1/auth/services/${service.id}`, {})).status).toBe(200);
    const signedOut = (await ownActivity(f.user.access)).filter((event) => event.kind === 'service-session-revoked');
    expect(signedOut.map((event) => [event.service?.name, event.detail])).toEqual([
      ['Outline', 'approval-only'],
      ['Grafana', null],
      ['Outline', null], // by its end-session
    ]);
  });

  it('records a service ending its session when the person signs out there, once', async () => {
    const config = await f.relyingParty(await f.createService({ name: 'Outline' }));
    const { tokens } = await f.signInToService(config);

    const endSession = () => as(undefined, 'POST', '/api/v1/oauth/end-session', { id_token_hint: tokens.id_token });
    expect((await endSession()).body).toEqual({ redirect_to: null, subject: tokens.claims()!.sub });
    expect((await endSession()).status).toBe(200); // already ended
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });

    const ended = (await adminLog()).filter((event) => event.kind === 'service-session-revoked');
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ user_id: tokens.claims()!.sub, user: { full_name: 'Olivia Ident' }, actor_id: tokens.claims()!.sub, service: { name: 'Outline' }, ip_address: '127.0.0.1' });
  });

  it("records an administrator's revoke once: revoking an ended session again changes and records nothing", async () => {
    const config = await f.relyingParty(await f.createService({ name: 'Outline' }));
    await f.signInToService(config);
    const userSession = ((await admin('GET', `/api/v1/admin/user-sessions?page=1&size=10&search=${encodeURIComponent(f.user.email)}`)).body.items as Array<{ id: string }>)[0]!;
    const serviceSession = ((await admin('GET', '/api/v1/admin/service-sessions?page=1&size=10')).body.items as Array<{ id: string }>)[0]!;
    // The service session first: the user session's revoke would end it too, as signed in from it.
    for (let i = 0; i < 2; i++) {
      expect((await admin('PATCH', `/api/v1/admin/service-sessions/revoke/${serviceSession.id}`, {})).status).toBe(200);
      expect((await admin('PATCH', `/api/v1/admin/user-sessions/revoke/${userSession.id}`, {})).status).toBe(200);
    }
    const revoked = kinds(await adminLog()).filter((kind) => kind.endsWith('session-revoked'));
    expect(revoked).toEqual(['user-session-revoked', 'service-session-revoked']);
  });

  it('is for administrators only, a page at a time, and refuses bad queries', async () => {
    for (let i = 0; i < 3; i++) await login(f.user.email, f.user.password);
    const firstPage = await admin('GET', '/api/v1/admin/audit-log?page=1&size=2');
    const secondPage = await admin('GET', '/api/v1/admin/audit-log?page=2&size=2');
    expect(firstPage.body.items).toHaveLength(2);
    expect(firstPage.body.kept_days, 'AUDIT_LOG_DAYS').toBe(90);
    expect(firstPage.body.total_pages).toBeGreaterThanOrEqual(4);
    const everything = await adminLog();
    expect([...firstPage.body.items, ...secondPage.body.items].map((event: AuditEvent) => event.id)).toEqual(everything.slice(0, 4).map((event) => event.id));
    expect(everything.map((event) => Date.parse(event.at))).toEqual(everything.map((event) => Date.parse(event.at)).sort((a, b) => b - a));

    const olivias = everything.filter((event) => event.user?.email === f.user.email);
    for (const search of ['olivia', f.user.email.toUpperCase()]) {
      const found = await admin('GET', `/api/v1/admin/audit-log?size=2&search=${encodeURIComponent(search)}`);
      expect(found.body.items.map((event: AuditEvent) => event.id), search).toEqual(olivias.slice(0, 2).map((event) => event.id));
      expect(found.body.total_pages, search).toBe(Math.ceil(olivias.length / 2));
    }
    expect((await admin('GET', '/api/v1/admin/audit-log?search=%25')).body.items).toEqual([]);
    await login(f.user.email, 'Wrong-pass1');
    const refusals = async () => kinds((await admin('GET', '/api/v1/admin/audit-log?group=refusals')).body.items as AuditEvent[]);
    await expect.poll(refusals).toEqual(['sign-in-refused: wrong-password']);
    const signIns = (await admin('GET', '/api/v1/admin/audit-log?group=sign-ins&size=100')).body.items as AuditEvent[];
    expect(signIns.length).toBeGreaterThanOrEqual(3);
    expect(signIns.every((event) => event.kind === 'signed-in')).toBe(true);
    expect(await admin('GET', '/api/v1/admin/audit-log?group=everything')).toMatchObject({ status: 400, body: { error: 'group: must be one of sign-ins, refusals, accounts, services' } });
    expect(await admin('GET', '/api/v1/admin/audit-log?page=0')).toMatchObject({ status: 400, body: { error: 'page: must be at least 1' } });
    expect(await admin('GET', '/api/v1/admin/audit-log?page=999999999999')).toMatchObject({ status: 400, body: { error: 'page: must be at most 1000000' } });
    // Past the safe integers too, the rule told is the list's, not the number type's.
    expect(await admin('GET', '/api/v1/admin/audit-log?page=1e20')).toMatchObject({ status: 400, body: { error: 'page: must be at most 1000000' } });
    expect(await admin('GET', '/api/v1/admin/audit-log?size=-1e20')).toMatchObject({ status: 400, body: { error: 'size: must be at least 1' } });
    expect(await admin('GET', '/api/v1/admin/audit-log?page=1.5')).toMatchObject({ status: 400, body: { error: 'page: must be a whole number' } });
    expect(await admin('GET', '/api/v1/admin/audit-log?size=ten')).toMatchObject({ status: 400, body: { error: 'size: must be a number' } });
    expect(await admin('GET', '/api/v1/admin/audit-log?page=1&page=2')).toMatchObject({ status: 400, body: { error: 'page: is sent more than once' } });
    expect(await admin('GET', '/api/v1/admin/audit-log?group=refusals&group=sign-ins')).toMatchObject({ status: 400, body: { error: 'group: is sent more than once' } });
    expect(await admin('GET', `/api/v1/admin/audit-log?user_id=${'x'.repeat(65)}`)).toMatchObject({ status: 400, body: { error: 'user_id: must be at most 64 characters' } });
    expect((await as(f.user.access, 'GET', '/api/v1/admin/audit-log')).status).toBe(403);
    expect((await as(undefined, 'GET', '/api/v1/admin/audit-log')).status).toBe(401);
  });

  it('narrows to one address exactly, and its search finds addresses too', async () => {
    await f.close();
    f = await startOidcFixture({ TRUST_PROXY: '127.0.0.1' }); // a proxy on the same host
    const loginFrom = (ip: string, password: string) =>
      fetch(`${f.issuer}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify({ email: f.user.email, password }) });
    expect((await loginFrom('203.0.113.7', 'Wrong-pass1')).status).toBe(401);
    expect((await loginFrom('203.0.113.70', f.user.password)).status).toBe(200);
    expect((await loginFrom('2001:db8::7', f.user.password)).status).toBe(200);

    // Exactly that address: not 203.0.113.70.
    await expect.poll(async () => kinds(await adminLog('&ip=203.0.113.7'))).toEqual(['sign-in-refused: wrong-password']);
    expect(kinds(await adminLog(`&ip=${encodeURIComponent('2001:db8::7')}`))).toEqual(['signed-in: pwd']);
    expect(await adminLog('&ip=198.51.100.1')).toEqual([]);
    expect(kinds(await adminLog('&ip=203.0.113.70&user_id=someone-else')), 'both filters hold').toEqual([]);
    expect((await adminLog('&search=203.0.113.')).map((event) => event.ip_address).sort()).toEqual(['203.0.113.7', '203.0.113.70']);
    expect((await admin('GET', `/api/v1/admin/audit-log?ip=${'1'.repeat(65)}`)).status).toBe(400);
  });
});
