import type { Selectable } from 'kysely';
import { inTransaction, type Database } from '../db/database';
import { isPostgres } from '../db/postgres-one-statement';
import { changedRows, firstRow, placeholderRow, preparedQuery, rowValues } from '../db/prepared-query';
import type { RefreshTokensTable, UsersTable, UserSessionsTable } from '../db/schema';
import { rotateRefreshTokenInOneStatement } from './postgres-rotation';
import { presentedKey, verifierMatches, type SplitToken } from './tokens';

export type UserSessionRow = Selectable<UserSessionsTable>;
export type RefreshTokenRow = Selectable<RefreshTokensTable>;

export class UserSessionsRepository {
  private readonly onPostgres: boolean;

  constructor(private readonly db: Database) {
    this.onPostgres = isPostgres(db);
  }

  /** A sign-in: the new session, its first token and the user's last sign-in, in one commit. */
  async insert(session: UserSessionRow, firstToken: SplitToken): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await insertSession(tx, rowValues(session, SESSION_COLUMNS));
      await insertToken(tx, { tokenKey: firstToken.key, verifierHash: firstToken.verifierHash, sessionId: session.id, parentKey: null, now: session.issued_at });
      await setLastLogin(tx, { id: session.user_id, now: session.issued_at });
    });
  }

  async findById(id: string): Promise<UserSessionRow | undefined> {
    return firstRow(await sessionById(this.db, { id }));
  }

  /** The user of a live session, for checking an access token; undefined when either has ended. */
  async findUserOfLiveSession(sessionId: string, userId: string, now: number): Promise<SignedInUser | undefined> {
    return firstRow(await liveSessionOfUser(this.db, { sessionId, userId, now }));
  }

  /** A presented refresh token with what its session says about it, in one query: every refresh and sign-out starts here. */
  async findTokenInSession(token: string) {
    const { key, verifierHash } = presentedKey(token);
    const row = firstRow(await refreshTokenInSession(this.db, { key }));
    return row && verifierMatches(row.verifier_hash, verifierHash) ? row : undefined;
  }

  /**
   * Withdraws the presented token, if it is still live, and stores `next` (its child) in its
   * place, sliding the session. Returns false, changing nothing, when it was no longer live: a
   * concurrent request got there first.
   */
  async rotateToken(presentedKey: string, next: SplitToken, sessionId: string, now: number, expiresAt: number): Promise<boolean> {
    const stored = { tokenKey: next.key, verifierHash: next.verifierHash, sessionId, parentKey: presentedKey, now };
    if (this.onPostgres) {
      const row = { 'next.token_key': next.key, 'next.verifier_hash': next.verifierHash, 'next.session_id': sessionId, 'next.parent_key': presentedKey, 'next.created_at': now, 'next.rotated_at': null, 'next.replaced_by': null };
      return (await rotateRefreshTokenInOneStatement(this.db, { liveKey: presentedKey, now, expiresAt, ...row })).rows.length === 1;
    }
    return this.db.transaction().execute(async (tx) => {
      if (changedRows(await withdrawToken(tx, { liveKey: presentedKey, now, replacedBy: next.key })) !== 1) return false;
      await insertToken(tx, stored);
      await slideSession(tx, { sessionId, now, expiresAt });
      return true;
    });
  }

  /**
   * For a presented token rotated within `graceMs` of now: withdraws the successor it was rotated
   * to, if that is unused (its answer was lost on the way), and stores `next` in its place, which
   * the presented token then names. False, changing nothing, otherwise. The presented token's row
   * is locked first, so requests presenting it at once take their turns, each replacing the one
   * before: read without the lock, a successor could be replaced between its read and its
   * withdrawal, and the request took that for a used one.
   */
  async replaceUnusedSuccessor(presentedKey: string, graceMs: number, next: SplitToken, sessionId: string, now: number, expiresAt: number): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      let read = tx.selectFrom('refresh_tokens').select(['rotated_at', 'replaced_by']).where('token_key', '=', presentedKey);
      if (this.onPostgres) read = read.forUpdate();
      const presented = await read.executeTakeFirst();
      // Within it either way: after the clock was set back, a rotation "in the future" is no licence
      // for as long as the clock was wrong.
      if (presented?.rotated_at == null || Math.abs(now - presented.rotated_at) > graceMs || presented.replaced_by === null) return false;
      if (changedRows(await withdrawToken(tx, { liveKey: presented.replaced_by, now, replacedBy: null })) !== 1) return false;
      await tx.updateTable('refresh_tokens').set({ replaced_by: next.key }).where('token_key', '=', presentedKey).execute();
      await insertToken(tx, { tokenKey: next.key, verifierHash: next.verifierHash, sessionId, parentKey: presentedKey, now });
      await slideSession(tx, { sessionId, now, expiresAt });
      return true;
    });
  }

  /** A user's live sessions, most recently active first (at most `limit`). */
  liveSessionsOfUser(userId: string, now: number, limit: number): Promise<UserSessionRow[]> {
    return this.db
      .selectFrom('user_sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('last_active', 'desc')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /**
   * Revokes a session and withdraws every token it still has; answers whether it was still open.
   * Tokens first, then the session, in the order a refresh takes them (postgres-rotation.ts): the
   * other order deadlocked on PostgreSQL with a refresh of the same session, which got a 500.
   * `endServices`: the service sessions signed in to from it end too (see endServicesOf).
   */
  async revoke(sessionId: string, now: number, endServices = false): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      await tx.updateTable('refresh_tokens').set({ rotated_at: now }).where('session_id', '=', sessionId).where('rotated_at', 'is', null).execute();
      const ended = await tx.updateTable('user_sessions').set({ revoked_at: now }).where('id', '=', sessionId).where('revoked_at', 'is', null).executeTakeFirst();
      if (endServices) await endServicesOf(tx, [sessionId], now);
      return ended.numUpdatedRows > 0n;
    });
  }

  /**
   * Revokes every live session of a user, but `exceptSessionId`, and withdraws their tokens and
   * the service sessions signed in to from them: a statement each, however many sessions. Answers
   * how many sessions it ended.
   */
  async revokeAllForUser(userId: string, now: number, exceptSessionId?: string, db: Database = this.db): Promise<number> {
    return inTransaction(db, async (tx) => {
      let live = tx.selectFrom('user_sessions').select('id').where('user_id', '=', userId).where('revoked_at', 'is', null);
      if (exceptSessionId) live = live.where('id', '!=', exceptSessionId);
      await tx.updateTable('refresh_tokens').set({ rotated_at: now }).where('session_id', 'in', live).where('rotated_at', 'is', null).execute();
      const ended = await tx.updateTable('user_sessions').set({ revoked_at: now }).where('id', 'in', live).returning('id').execute();
      await endServicesOf(tx, ended.map((row) => row.id), now);
      return ended.length;
    });
  }
}

/**
 * Ends the service sessions signed in to from these sessions, as Keycloak ends a revoked sign-in's
 * client sessions: a laptop signed out from elsewhere, or by an administrator, must not stay
 * signed in to Grafana. After the sessions' own rows, which a code exchange locks (for share)
 * before it opens a service session: one that got there first is seen here, one that comes after
 * finds its sign-in ended. A person signing out on the device itself leaves them: the services'
 * sessions are theirs to end, on each service or under Personal Info.
 */
async function endServicesOf(tx: Database, sessionIds: string[], now: number): Promise<void> {
  if (sessionIds.length === 0) return;
  await tx.updateTable('service_sessions').set({ revoked_at: now }).where('user_session_id', 'in', sessionIds).where('revoked_at', 'is', null).execute();
}

/** What an authenticated request knows of its user, read with the session: a profile call reads nothing else. */
export const SIGNED_IN_USER_COLUMNS = ['id', 'email', 'full_name', 'username', 'phone_number', 'profile_picture', 'is_admin', 'email_verified', 'avatar_verified', 'verified'] as const;
export type SignedInUser = Pick<Selectable<UsersTable>, (typeof SIGNED_IN_USER_COLUMNS)[number]>;

// Every sign-in, profile call and first-party refresh runs these: compiled once (see preparedQuery).
const sessionById = preparedQuery((db, value) => db.selectFrom('user_sessions').selectAll().where('id', '=', value<string>('id')));

const liveSessionOfUser = preparedQuery((db, value) =>
  db
    .selectFrom('user_sessions')
    .innerJoin('users', 'users.id', 'user_sessions.user_id')
    .select(SIGNED_IN_USER_COLUMNS.map((column) => `users.${column}` as const))
    .where('user_sessions.id', '=', value<string>('sessionId'))
    .where('user_sessions.user_id', '=', value<string>('userId'))
    .where('user_sessions.revoked_at', 'is', null)
    .where('user_sessions.expires_at', '>', value<number>('now'))
    // Disabling ends the sessions too; this holds even if that was cut short.
    .where('users.disabled_at', 'is', null),
);

const refreshTokenInSession = preparedQuery((db, value) =>
  db
    .selectFrom('refresh_tokens')
    .innerJoin('user_sessions', 'user_sessions.id', 'refresh_tokens.session_id')
    .selectAll('refresh_tokens')
    .select(['user_sessions.user_id', 'user_sessions.issued_at as session_issued_at', 'user_sessions.revoked_at as session_revoked_at', 'user_sessions.expires_at as session_expires_at'])
    .where('refresh_tokens.token_key', '=', value<string>('key')),
);

const withdrawToken = preparedQuery((db, value) =>
  db
    .updateTable('refresh_tokens')
    .set({ rotated_at: value('now'), replaced_by: value('replacedBy') })
    .where('token_key', '=', value<string>('liveKey'))
    .where('rotated_at', 'is', null),
);

// A session's first token has no parent (parentKey null); each rotation's has the one it replaced.
const insertToken = preparedQuery((db, value) =>
  db.insertInto('refresh_tokens').values({ token_key: value('tokenKey'), verifier_hash: value('verifierHash'), session_id: value('sessionId'), parent_key: value('parentKey'), created_at: value('now'), rotated_at: null }),
);

const slideSession = preparedQuery((db, value) =>
  db.updateTable('user_sessions').set({ last_active: value('now'), expires_at: value('expiresAt') }).where('id', '=', value<string>('sessionId')),
);

const setLastLogin = preparedQuery((db, value) => db.updateTable('users').set({ last_login: value('now') }).where('id', '=', value<string>('id')));

const SESSION_COLUMNS = ['id', 'user_id', 'device_info', 'ip_address', 'issued_at', 'expires_at', 'last_active', 'revoked_at', 'amr'] as const;
const insertSession = preparedQuery((db, value) => db.insertInto('user_sessions').values(placeholderRow<UserSessionRow>(value, SESSION_COLUMNS)));
