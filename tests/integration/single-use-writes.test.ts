import { afterEach, beforeEach, expect, it } from 'vitest';
import { ServiceSessionsRepository, type CodeRow, type ServiceSessionRow } from '../../server/oauth/service-sessions-repository';
import { UserSessionsRepository } from '../../server/sessions/user-sessions-repository';
import { hashToken, newSplitToken, presentedKey } from '../../server/sessions/tokens';
import { CALLBACK, oidcJson, startOidcFixture, type OidcFixture } from '../support/oidc-fixture';

// What the writes behind a code exchange and a refresh promise whichever way the database runs
// them (a transaction on SQLite, one statement on PostgreSQL): the code or refresh token is claimed
// once, and a second claim, as a concurrent request makes after both read the row unused, changes
// nothing.

let f: OidcFixture;
let repository: ServiceSessionsRepository;
let service: Awaited<ReturnType<OidcFixture['createService']>>;
beforeEach(async () => {
  f = await startOidcFixture();
  service = await f.createService();
  repository = new ServiceSessionsRepository(f.t.db);
});
afterEach(async () => f.close());

const newCode = async () => (await oidcJson(f.issuer, 'POST', '/api/v1/oauth/code', { client_id: service.clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid email' }, f.user.access)).body.code as string;

const tokenRows = (sessionId: string, name: string, now: number) =>
  (['access', 'refresh'] as const).map((kind) => ({ token_key: `${name}-${kind}`, verifier_hash: `${name}-verifier`, kind, scope: 'openid', service_session_id: sessionId, created_at: now, expires_at: now + 60_000, used_at: null }));

/** The service session a code opens, as the token endpoint builds it. */
const sessionOf = (code: CodeRow, id: string, now: number): ServiceSessionRow => ({ id, service_id: service.id, user_id: code.user_id, user_session_id: code.user_session_id, scope: code.scope, ip_address: null, auth_time: code.auth_time, amr: code.amr, issued_at: now, expires_at: now + 60_000, last_active: now, revoked_at: null });

const rowsOf = (keys: string[]) => f.t.db.selectFrom('service_tokens').selectAll().where('token_key', 'in', keys).execute();

it('a code opens one session: a second claim of it creates no session and no tokens', async () => {
  const codeHash = hashToken(await newCode());
  const code = (await repository.findCode(codeHash))!;
  const now = f.t.app.services.clock();
  const session = (id: string) => sessionOf(code, id, now);

  expect(await repository.openSessionWithCode(session('session-a'), codeHash, tokenRows('session-a', 'a', now))).toBe(true);
  expect(await repository.openSessionWithCode(session('session-b'), codeHash, tokenRows('session-b', 'b', now))).toBe(false);

  expect(await repository.findCode(codeHash)).toMatchObject({ used_at: now, service_session_id: 'session-a' });
  expect(await repository.findSession('session-a')).toEqual(session('session-a'));
  expect(await repository.findSession('session-b')).toBeUndefined();
  expect((await rowsOf(['a-access', 'a-refresh', 'b-access', 'b-refresh'])).map((row) => row.token_key).sort()).toEqual(['a-access', 'a-refresh']);
  expect(await rowsOf(['a-refresh'])).toEqual([expect.objectContaining({ kind: 'refresh', scope: 'openid', service_session_id: 'session-a', created_at: now, expires_at: now + 60_000, used_at: null })]);
});

it('a code opens no session once the sign-in behind it has ended, though it was live when the code was read', async () => {
  const codeHash = hashToken(await newCode());
  const code = (await repository.findCode(codeHash))!;
  const now = f.t.app.services.clock();
  // The user's sessions end (a new password, the account disabled) between the token endpoint's read and its write.
  await f.t.db.updateTable('user_sessions').set({ revoked_at: now }).where('id', '=', code.user_session_id).execute();
  expect(await repository.openSessionWithCode(sessionOf(code, 'session-late', now), codeHash, tokenRows('session-late', 'late', now))).toBe(false);
  expect(await repository.findSession('session-late')).toBeUndefined();
  expect(await rowsOf(['late-access', 'late-refresh'])).toEqual([]);
  expect((await repository.findCode(codeHash))!.used_at).toBeNull();
});

it('a refresh token rotates once: a second claim stores no successors and does not slide the session', async () => {
  const codeHash = hashToken(await newCode());
  const code = (await repository.findCode(codeHash))!;
  const now = f.t.app.services.clock();
  expect(await repository.openSessionWithCode(sessionOf(code, 'session-r', now), codeHash, tokenRows('session-r', 'first', now))).toBe(true);

  expect(await repository.rotate('first-refresh', 'session-r', now + 1_000, now + 90_000, tokenRows('session-r', 'second', now + 1_000))).toBe(true);
  expect(await repository.rotate('first-refresh', 'session-r', now + 2_000, now + 120_000, tokenRows('session-r', 'third', now + 2_000))).toBe(false);

  expect(await repository.findSession('session-r')).toMatchObject({ last_active: now + 1_000, expires_at: now + 90_000 });
  expect((await rowsOf(['first-refresh']))[0]!.used_at).toBe(now + 1_000);
  expect((await rowsOf(['second-access', 'second-refresh', 'third-access', 'third-refresh'])).map((row) => row.token_key).sort()).toEqual(['second-access', 'second-refresh']);
});

it('a first-party refresh token rotates once: a second claim stores no successor and does not slide the session', async () => {
  const sessions = new UserSessionsRepository(f.t.db);
  const tokenRow = (tokenKey: string) => f.t.db.selectFrom('refresh_tokens').selectAll().where('token_key', '=', tokenKey).executeTakeFirst();
  const signIn = (await oidcJson(f.issuer, 'POST', '/api/v1/auth/login', { email: f.user.email, password: f.user.password })).body;
  const { key } = presentedKey(signIn.refresh);
  const sessionId = (await tokenRow(key))!.session_id;
  const now = f.t.app.services.clock();
  const [second, third] = [newSplitToken(now), newSplitToken(now)];

  expect(await sessions.rotateToken(key, second, sessionId, now + 1_000, now + 90_000)).toBe(true);
  expect(await sessions.rotateToken(key, third, sessionId, now + 2_000, now + 120_000)).toBe(false);

  expect(await sessions.findById(sessionId)).toMatchObject({ last_active: now + 1_000, expires_at: now + 90_000 });
  expect(await tokenRow(key)).toMatchObject({ rotated_at: now + 1_000, replaced_by: second.key });
  expect(await tokenRow(second.key)).toEqual({ token_key: second.key, verifier_hash: second.verifierHash, session_id: sessionId, parent_key: key, created_at: now + 1_000, rotated_at: null, replaced_by: null });
  expect(await tokenRow(third.key)).toBeUndefined();
});
