import * as client from 'openid-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServiceSessionsRepository } from '../../server/oauth/service-sessions-repository';
import { UserSessionsRepository } from '../../server/sessions/user-sessions-repository';
import { holdTheNextCallAfterItsAnswer, holdTheNextCallBeforeItRuns } from '../support/hold-a-call';
import { CALLBACK, oidcJson, startOidcFixture, type OidcFixture } from '../support/oidc-fixture';
import { lockWaits, testDatabaseKind } from '../support/test-database';

// A grant reads its code or refresh token, checks it, then uses it in one write that holds only if
// it is still unused (and, for a code, its sign-in still open): the service session is opened or
// its tokens rotated there. These hold a grant between its read and its write while something
// else happens. The code is given in the same way: not for a sign-in that ended as it was asked for.

let f: OidcFixture;
let config: client.Configuration;
beforeEach(async () => {
  f = await startOidcFixture();
  config = await f.relyingParty(await f.createService());
});
afterEach(async () => {
  vi.restoreAllMocks();
  await f.close();
});

/** Holds the next grant after it has read its code or refresh token, until `release` is called. */
const holdAGrantAfterItsRead = (read: 'findCodeInContext' | 'findTokenInContext') => holdTheNextCallAfterItsAnswer(ServiceSessionsRepository.prototype, read);

/** A code given by the consent screen to the holder of `token`, and its exchange by the service. */
async function codeGiven(token?: string) {
  const verifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: 'openid email offline_access', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
  const callback = await f.allow(url, token);
  return () => client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
}

const refusal = (exchanged: Promise<unknown>) => exchanged.then(() => 'answered with tokens', (caught: client.ResponseBodyError) => `${caught.error}: ${caught.error_description}`);
const reusesReported = () => f.t.db.selectFrom('audit_events').select('detail').where('kind', '=', 'token-reused').execute();
const userinfoStatus = async (access: string) => (await fetch(`${f.issuer}/api/v1/oauth/userinfo`, { headers: { authorization: `Bearer ${access}` } })).status;

it('an exchange overtaken by another of the same code gets no tokens, and what the other got is revoked', async () => {
  const exchange = await codeGiven();
  const { held, release } = holdAGrantAfterItsRead('findCodeInContext');
  const overtaken = refusal(exchange());
  await held;
  const first = await exchange();
  expect(await userinfoStatus(first.access_token)).toBe(200);
  release();
  expect(await overtaken).toBe('invalid_grant: The code has already been used');
  expect(await userinfoStatus(first.access_token), 'a copy of the code exists: its session ends').toBe(401);
  expect(await reusesReported()).toEqual([{ detail: 'code' }]);
});

it('an exchange whose sign-in ends between its read and its write gets no tokens, and the code is used up', async () => {
  const signIn = (await oidcJson(f.issuer, 'POST', '/api/v1/auth/login', { email: f.user.email, password: f.user.password })).body;
  const exchange = await codeGiven(signIn.access);
  const { held, release } = holdAGrantAfterItsRead('findCodeInContext');
  const exchanged = refusal(exchange());
  await held;
  expect((await oidcJson(f.issuer, 'POST', '/api/v1/auth/logout', {}, signIn.refresh)).status).toBe(200);
  release();
  expect(await exchanged).toBe('invalid_grant: The sign-in behind this code has ended');
  expect(await f.t.db.selectFrom('service_sessions').select('id').execute(), 'no session was opened').toEqual([]);
  expect(await refusal(exchange())).toBe('invalid_grant: The code has already been used');
});

it('an exchange whose account an administrator deletes between its read and its write gets no tokens, and no 500', async () => {
  const exchange = await codeGiven();
  const { id } = (await oidcJson(f.issuer, 'GET', '/api/v1/auth/profile', undefined, f.user.access)).body;
  const { held, release } = holdAGrantAfterItsRead('findCodeInContext');
  const exchanged = refusal(exchange());
  await held;
  expect((await oidcJson(f.issuer, 'DELETE', `/api/v1/admin/users/${id}`, undefined, f.adminToken)).status).toBe(200);
  release();
  expect(await exchanged).toBe('invalid_grant: The sign-in behind this code has ended');
  expect(await f.t.db.selectFrom('service_sessions').select('id').execute()).toEqual([]);
});

it('a refresh overtaken by another of the same refresh token gets no tokens, and the session is ended: a copy exists', async () => {
  const refreshToken = (await (await codeGiven())()).refresh_token;
  expect(refreshToken).toEqual(expect.any(String));
  const { held, release } = holdAGrantAfterItsRead('findTokenInContext');
  const overtaken = refusal(client.refreshTokenGrant(config, refreshToken!));
  await held;
  const first = await client.refreshTokenGrant(config, refreshToken!);
  release();
  expect(await overtaken).toBe('invalid_grant: The refresh token has already been used');
  expect(await userinfoStatus(first.access_token)).toBe(401);
  expect(await reusesReported()).toEqual([{ detail: 'refresh-token' }]);
  expect(await refusal(client.refreshTokenGrant(config, first.refresh_token!))).toBe('invalid_grant: The refresh token has expired or was revoked');
});

it.each([
  ['after the access token was checked', () => holdTheNextCallBeforeItRuns(UserSessionsRepository.prototype, 'findById')],
  ['after the sign-in was read, as the code is stored', () => holdTheNextCallBeforeItRuns(ServiceSessionsRepository.prototype, 'insertCode')],
])('a code asked for as its sign-in ends (signed out %s) is not given, nor the service approved', async (_, hold) => {
  const signIn = (await oidcJson(f.issuer, 'POST', '/api/v1/auth/login', { email: f.user.email, password: f.user.password })).body;
  const { held, release } = hold();
  const askForACode = () => oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { client_id: config.clientMetadata().client_id, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid email' }, signIn.access);
  const asked = askForACode();
  await held;
  expect((await oidcJson(f.issuer, 'POST', '/api/v1/auth/logout', {}, signIn.refresh)).status).toBe(200);
  release();
  const { status, body } = await asked;
  expect({ status, body }).toMatchObject({ status: 401, body: { error: 'invalid_token' } });
  const askedAfter = await askForACode();
  expect(body, 'as if asked after the sign-out').toEqual(askedAfter.body);
  expect(await f.t.db.selectFrom('oauth_codes').select('code_hash').execute()).toEqual([]);
  expect(await f.t.db.selectFrom('consents').select('scope').execute()).toEqual([]);
});

// PostgreSQL reads what had committed when a statement began: a revoke not yet committed would not
// be seen. The writes that depend on a sign-in lock its row for share, so they wait for the revoke.
describe.runIf(testDatabaseKind() === 'postgres')('a sign-out under way on PostgreSQL', () => {
  /** Sends `request` while another transaction has revoked the sign-in behind `access`, and commits that once `request` waits for it. */
  async function whileRevoking<T>(access: string, request: () => Promise<T>): Promise<T> {
    const { sessionId } = await f.t.app.services.sessions.authenticate(access);
    const { answer } = await f.t.db.transaction().execute(async (tx) => {
      await tx.updateTable('user_sessions').set({ revoked_at: Date.now() }).where('id', '=', sessionId).execute();
      const sent = request();
      await expect.poll(() => lockWaits(f.t.db)).toBeGreaterThan(0);
      return { answer: sent };
    });
    return answer;
  }

  it('is waited for by a code being stored, and no code is', async () => {
    const asked = await whileRevoking(f.user.access, () =>
      oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { client_id: config.clientMetadata().client_id, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid' }, f.user.access),
    );
    expect({ status: asked.status, error: asked.body.error }).toEqual({ status: 401, error: 'invalid_token' });
    expect(await f.t.db.selectFrom('oauth_codes').select('code_hash').execute()).toEqual([]);
  });

  it('is waited for by a code exchange, which opens no session', async () => {
    const exchange = await codeGiven();
    expect(await refusal(whileRevoking(f.user.access, exchange))).toBe('invalid_grant: The sign-in behind this code has ended');
    expect(await f.t.db.selectFrom('service_sessions').select('id').execute()).toEqual([]);
  });
});
