import { SignJWT, UnsecuredJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { signJwt } from '../../server/keys/sign-jwt';
import { hashToken, newOpaqueToken } from '../../server/sessions/tokens';
import { call, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp({ ACCESS_TOKEN_TTL: '60' }, { refreshGraceSeconds: 10 });
});
afterEach(async () => t.close());

const refresh = (token: string) => call(t.app, 'POST', '/api/v1/auth/refresh', { token, body: {} });
const profile = (token: string) => call(t.app, 'GET', '/api/v1/auth/profile', { token });
/** Sessions that end after three hours unused, or twelve after their sign-in, whatever their use. */
const SHORT_SESSIONS = { ACCESS_TOKEN_TTL: '60', REFRESH_TOKEN_TTL: String(3 * 3600), SESSION_MAX_AGE: String(12 * 3600) };

describe('access and refresh tokens', () => {
  it('register → login → profile → refresh → profile with the new token', async () => {
    const user = await registerAndLogin(t.app);
    expect((await profile(user.access)).body.email).toBe(user.email);

    const header = decodeProtectedHeader(user.access);
    const claims = decodeJwt(user.access);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    expect(claims.sub).toBe(user.id);
    expect(claims.exp! - claims.iat!).toBe(60);
    expect(typeof claims.sid).toBe('string');

    t.advance(5_000);
    const renewed = await refresh(user.refresh);
    expect(renewed.status).toBe(200);
    expect(renewed.headers['cache-control']).toBe('no-store');
    expect(renewed.body.refresh).not.toBe(user.refresh);
    expect(decodeJwt(renewed.body.access).sid).toBe(claims.sid);
    expect((await profile(renewed.body.access)).body.id).toBe(user.id);

    const session = await t.db.selectFrom('user_sessions').selectAll().where('id', '=', claims.sid as string).executeTakeFirstOrThrow();
    expect(session.last_active).toBe(session.issued_at + 5_000);
    // Each use would push the end on by REFRESH_TOKEN_TTL; by default SESSION_MAX_AGE, as long, caps it.
    expect(session.expires_at).toBe(session.issued_at + 30 * 24 * 3600 * 1000);
  });

  it("accepts an empty body on refresh, and stores of refresh tokens only their selectors and their secrets' hashes", async () => {
    const user = await registerAndLogin(t.app);
    const empty = await call(t.app, 'POST', '/api/v1/auth/refresh', { token: user.refresh, rawBody: '', headers: { 'content-type': 'application/json' } });
    expect(empty.status).toBe(200);
    const rows = await t.db.selectFrom('refresh_tokens').selectAll().execute();
    const stored = JSON.stringify(rows);
    for (const token of [user.refresh, empty.body.refresh as string]) {
      const [selector, secret] = token.split('.');
      expect(stored).toContain(selector);
      expect(stored).not.toContain(secret);
      expect(stored).toContain(hashToken(secret!));
    }
  });

  it('an old refresh token used after the grace window revokes the whole session', async () => {
    const user = await registerAndLogin(t.app);
    const first = await refresh(user.refresh);
    t.advance(10_001); // a millisecond past it
    const replay = await refresh(user.refresh);
    expect(replay.status).toBe(401);
    expect((await profile(first.body.access)).status).toBe(401);
    expect((await refresh(first.body.refresh)).status).toBe(401);
    const session = await t.db.selectFrom('user_sessions').select('revoked_at').where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(session.revoked_at).not.toBeNull();
  });

  it('within the grace window a lost answer is recovered, and the lost token dies', async () => {
    const user = await registerAndLogin(t.app);
    const lost = await refresh(user.refresh); // the client never saw this answer
    t.advance(10_000); // its last millisecond
    const retry = await refresh(user.refresh);
    expect(retry.status).toBe(200);
    expect((await profile(retry.body.access)).status).toBe(200);
    const live = await t.db.selectFrom('refresh_tokens').select('token_key').where('rotated_at', 'is', null).execute();
    expect(live).toHaveLength(1);
    // The lost token was withdrawn: presenting it later is a replay.
    t.advance(20_000);
    expect((await refresh(lost.body.refresh)).status).toBe(401);
    expect((await profile(retry.body.access)).status).toBe(401);
  });

  it("a second retry within the grace window replaces the first retry's lost token in turn", async () => {
    const user = await registerAndLogin(t.app);
    const lost = await refresh(user.refresh);
    const lostAgain = await refresh(user.refresh);
    const retry = await refresh(user.refresh);
    expect([lost.status, lostAgain.status, retry.status]).toEqual([200, 200, 200]);
    expect((await profile(retry.body.access)).status).toBe(200);
    const live = await t.db.selectFrom('refresh_tokens').select(['token_key', 'replaced_by']).where('rotated_at', 'is', null).execute();
    expect(live).toHaveLength(1);
    const presented = await t.db.selectFrom('refresh_tokens').select('replaced_by').where('parent_key', 'is', null).executeTakeFirstOrThrow();
    expect(presented.replaced_by).toBe(live[0]!.token_key);
    // Neither lost token leads anywhere: presenting one is a replay.
    expect((await refresh(lostAgain.body.refresh)).status).toBe(401);
    expect((await profile(retry.body.access)).status).toBe(401);
  });

  it('one token presented by several requests at once (a client without a lock around its refresh) leaves the session live, on either database', async () => {
    const user = await registerAndLogin(t.app);
    for (let round = 0; round < 5; round++) {
      const session = await t.db.selectFrom('user_sessions').select('id').where('user_id', '=', user.id).executeTakeFirstOrThrow();
      const answers = await Promise.all(Array.from({ length: 6 }, () => refresh(user.refresh)));
      expect(answers.map((answer) => answer.status), `round ${round}`).toEqual(Array(6).fill(200));
      const ended = await t.db.selectFrom('user_sessions').select('revoked_at').where('id', '=', session.id).executeTakeFirstOrThrow();
      expect(ended.revoked_at, `round ${round}: nobody used a copy`).toBeNull();
      // The last one to replace its predecessor holds the live token; the others' tokens were withdrawn.
      const live = await t.db.selectFrom('refresh_tokens').select('token_key').where('session_id', '=', session.id).where('rotated_at', 'is', null).execute();
      expect(live).toHaveLength(1);
      const holder = answers.find((answer) => answer.body.refresh.startsWith(`${live[0]!.token_key}.`))!;
      const next = await refresh(holder.body.refresh);
      expect(next.status, `round ${round}: the live token's holder refreshes`).toBe(200);
      user.refresh = next.body.refresh;
      t.advance(11_000); // past the grace window: each round starts from a token used once
    }
    expect(await t.db.selectFrom('audit_events').select('kind').where('kind', '=', 'token-reused').execute()).toEqual([]);
  });

  it('a clock set back does not stretch the grace window: an old token presented later is a copy', async () => {
    const user = await registerAndLogin(t.app);
    expect((await refresh(user.refresh)).status).toBe(200);
    t.advance(-3_600_000); // NTP corrects a clock that ran an hour fast
    t.advance(40_000);
    expect((await refresh(user.refresh)).status).toBe(401);
    expect(await t.db.selectFrom('user_sessions').select('revoked_at').where('user_id', '=', user.id).executeTakeFirstOrThrow()).not.toEqual({ revoked_at: null });
  });

  it('a replay within the grace window after the new token was used still revokes', async () => {
    const user = await registerAndLogin(t.app);
    const second = await refresh(user.refresh);
    const third = await refresh(second.body.refresh);
    expect(third.status).toBe(200);
    expect((await refresh(user.refresh)).status).toBe(401);
    expect((await profile(third.body.access)).status).toBe(401);
  });

  it('a right selector with a wrong secret is refused, for a refresh and a sign-out, and spends nothing', async () => {
    const user = await registerAndLogin(t.app);
    const forged = `${user.refresh.split('.')[0]}.${newOpaqueToken()}`;
    expect((await refresh(forged)).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/v1/auth/logout', { token: forged, body: {} })).status).toBe(200);
    expect((await profile(user.access)).status).toBe(200);
    expect((await refresh(user.refresh)).status).toBe(200);
  });

  it('a refresh token issued before selectors (keyed by its whole hash) still rotates, once', async () => {
    await registerAndLogin(t.app);
    const older = newOpaqueToken();
    // The session's live token as an older version stored it.
    await t.db.updateTable('refresh_tokens').set({ token_key: hashToken(older), verifier_hash: null }).where('rotated_at', 'is', null).execute();
    const renewed = await refresh(older);
    expect(renewed.status).toBe(200);
    expect((await profile(renewed.body.access)).status).toBe(200);
    t.advance(11_000);
    expect((await refresh(older)).status).toBe(401);
    expect((await profile(renewed.body.access)).status).toBe(401);
  });

  it('a refresh racing the sign-out of its session is served or refused, never a 500, and the session ends', async () => {
    const user = await registerAndLogin(t.app);
    for (let i = 0; i < 40; i++) {
      const { refresh: token } = (await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password } })).body;
      const [refreshed, signedOut] = await Promise.all([refresh(token), call(t.app, 'POST', '/api/v1/auth/logout', { token, body: {} })]);
      expect([200, 401], JSON.stringify(refreshed.body)).toContain(refreshed.status);
      expect(signedOut.status).toBe(200);
    }
    const open = await t.db.selectFrom('user_sessions').select('id').where('user_id', '=', user.id).where('revoked_at', 'is', null).execute();
    expect(open, "only the first sign-in's").toHaveLength(1);
    // A token withdrawn by the sign-out was not used twice: no one is told it was copied.
    expect(await t.db.selectFrom('audit_events').select('kind').where('kind', '=', 'token-reused').execute()).toEqual([]);
  });

  it('refuses an access token at once when its session is revoked in the database', async () => {
    const user = await registerAndLogin(t.app);
    expect((await profile(user.access)).status).toBe(200);
    await t.db.updateTable('user_sessions').set({ revoked_at: Date.now() }).where('user_id', '=', user.id).execute();
    const refused = await profile(user.access);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'The token is invalid or has expired' });
    expect((await refresh(user.refresh)).status).toBe(401);
  });

  it('refuses expired access tokens and expired sessions', async () => {
    const user = await registerAndLogin(t.app);
    // Accepted once first, so the verified-claims cache holds it when it expires.
    expect((await profile(user.access)).status).toBe(200);
    t.advance(61_000);
    expect((await profile(user.access)).status).toBe(401);
    const renewed = await refresh(user.refresh);
    expect((await profile(renewed.body.access)).status).toBe(200);
    t.advance(31 * 24 * 3600 * 1000);
    expect((await refresh(renewed.body.refresh)).status).toBe(401);
  });

  it('ends a session SESSION_MAX_AGE after its sign-in, however often it is used', async () => {
    await t.close();
    t = await startTestApp(SHORT_SESSIONS);
    const hour = 3600 * 1000;
    const user = await registerAndLogin(t.app);
    let tokens: { access: string; refresh: string } = user;
    // Used every two hours: the idle limit (three hours) never strikes, the maximum age does.
    for (let elapsed = 2; elapsed <= 10; elapsed += 2) {
      t.advance(2 * hour);
      const renewed = await refresh(tokens.refresh);
      expect(renewed.status, `after ${elapsed} hours`).toBe(200);
      tokens = renewed.body as typeof tokens;
    }
    const session = await t.db.selectFrom('user_sessions').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(session.expires_at).toBe(session.issued_at + 12 * hour);

    t.advance(2 * hour - 30_000);
    tokens = (await refresh(tokens.refresh)).body as typeof tokens;
    expect((await profile(tokens.access)).status).toBe(200);
    t.advance(31_000); // the access token has 29 s left, the session none
    expect((await profile(tokens.access)).status).toBe(401);
    expect((await refresh(tokens.refresh)).status).toBe(401);
  });

  it('ends a session left unused for REFRESH_TOKEN_TTL, its idle limit', async () => {
    await t.close();
    t = await startTestApp(SHORT_SESSIONS);
    const [used, idle] = [await registerAndLogin(t.app), await registerAndLogin(t.app)];
    t.advance(3 * 3600 * 1000 - 1);
    expect((await refresh(used.refresh)).status).toBe(200);
    t.advance(1);
    expect((await refresh(idle.refresh)).status).toBe(401);
  });

  it('refuses the refresh of a session past a SESSION_MAX_AGE lowered since, instead of handing out tokens that cannot work', async () => {
    const user = await registerAndLogin(t.app);
    const { issued_at } = await t.db.selectFrom('user_sessions').select('issued_at').where('user_id', '=', user.id).executeTakeFirstOrThrow();
    const end = issued_at + 3600 * 1000;
    /** The answer to a refresh of the sign-in's token by the server restarted with an hour's SESSION_MAX_AGE, its clock at `now`. */
    const refreshRestartedAt = async (now: number) => {
      const restarted = await buildApp(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:8080', DATA_DIR: t.database.dataDir, SESSION_MAX_AGE: '3600' }), { db: t.db, clock: () => now, logger: false });
      const answer = await call(restarted, 'POST', '/api/v1/auth/refresh', { token: user.refresh, body: {} });
      await restarted.close();
      return answer;
    };
    expect((await refreshRestartedAt(end + 3600 * 1000)).status).toBe(401);
    expect((await refreshRestartedAt(end)).status, 'at the millisecond the lowered maximum ends it').toBe(401);
    // Refused, the token stays unused: a millisecond earlier it is still taken.
    expect((await refreshRestartedAt(end - 1)).status).toBe(200);
  });

  it('refuses a token of a deleted user', async () => {
    const user = await registerAndLogin(t.app);
    await t.db.deleteFrom('users').where('id', '=', user.id).execute();
    expect((await profile(user.access)).status).toBe(401);
  });

  it('refuses forged tokens: alg none, another key, a refresh token as access, garbage', async () => {
    const user = await registerAndLogin(t.app);
    const claims = decodeJwt(user.access);
    const unsigned = new UnsecuredJWT(claims).encode();
    const { generateKeyPair } = await import('jose');
    const { privateKey } = await generateKeyPair('ES256');
    const header = decodeProtectedHeader(user.access);
    const foreign = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: header.kid!, typ: 'at+jwt' }).sign(privateKey);
    // HS256 "signed" with our public key as the HMAC secret: the classic algorithm confusion.
    const jwks = (await call(t.app, 'GET', '/.well-known/jwks.json')).body.keys;
    const publicJwk = jwks.find((k: { kid: string }) => k.kid === header.kid);
    const confused = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: header.kid!, typ: 'at+jwt' }).sign(new TextEncoder().encode(JSON.stringify(publicJwk)));
    const notYetValid = await new SignJWT({ ...claims, nbf: Math.floor(Date.now() / 1000) + 3600 }).setProtectedHeader({ alg: 'ES256', kid: header.kid!, typ: 'at+jwt' }).sign(privateKey);
    for (const token of [unsigned, foreign, confused, notYetValid, user.refresh, 'abc', `${user.access}x`]) {
      const answer = await profile(token);
      expect(answer.status, token).toBe(401);
    }
    expect((await call(t.app, 'GET', '/api/v1/auth/profile')).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/v1/auth/profile', { headers: { authorization: `Basic ${user.access}` } })).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/v1/auth/refresh', { body: {} })).status).toBe(401);
    expect((await refresh(user.access)).status).toBe(401);
  });

  it('refuses tokens signed with its own key that are not first-party access tokens as it issues them', async () => {
    const user = await registerAndLogin(t.app);
    const { kid, key } = await t.app.services.keys.signingKey('ES256');
    const { sid, sub, iss, aud, iat, exp, jti } = decodeJwt(user.access);
    const claims = { sid, iss, aud, sub, jti, iat, exp };
    // Bound to this server's API (RFC 9068), an audience no service is given.
    expect(aud).toBe(`${iss}/api`);
    const signed = (changed: Record<string, unknown>, typ = 'at+jwt') => signJwt('ES256', key, { kid, typ }, { ...claims, ...changed });
    // The same claims signed again pass, so each refusal below is its one change's.
    expect((await profile(await signed({}))).status).toBe(200);
    const now = Math.floor(Date.now() / 1000);
    const refusedTokens = {
      'no sid': await signed({ sid: undefined }),
      'a sid that is no string': await signed({ sid: 7 }),
      'no sub': await signed({ sub: undefined }),
      'a sub that is no string': await signed({ sub: 7 }),
      'no iat': await signed({ iat: undefined }),
      'no exp': await signed({ exp: undefined }),
      expired: await signed({ iat: now - 7200, exp: now - 3600 }),
      "a service's audience": await signed({ aud: iss }),
      'another issuer': await signed({ iss: 'https://elsewhere.example' }),
      'an ID token': await signed({}, 'JWT'),
    };
    for (const [why, token] of Object.entries(refusedTokens)) expect((await profile(token)).status, why).toBe(401);
  });
});

describe('signing out', () => {
  it('ends the session on the server: its tokens stop working', async () => {
    const user = await registerAndLogin(t.app);
    const out = await call(t.app, 'POST', '/api/v1/auth/logout', { token: user.refresh, body: {} });
    expect(out.status).toBe(200);
    expect((await profile(user.access)).status).toBe(401);
    expect((await refresh(user.refresh)).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/v1/auth/logout', { token: 'unknown', body: {} })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/v1/auth/logout', { body: {} })).status).toBe(401);
  });
});
