import { sql, type Insertable, type Selectable } from 'kysely';
import type { Database } from '../db/database';
import { onDirectSqlite, type DirectSqlite } from '../db/direct-sqlite';
import { isPostgres, type ColumnTypes } from '../db/postgres-one-statement';
import { changedRows, firstRow, placeholderRow, preparedQuery, preparedQueryPerCount, rowValues } from '../db/prepared-query';
import type { OauthCodesTable, ServiceSessionsTable, ServiceTokensTable } from '../db/schema';
import { presentedKey, verifierMatches } from '../sessions/tokens';
import { openSessionInOneStatement, rotateInOneStatement } from './postgres-grant-writes';

export type CodeRow = Selectable<OauthCodesTable>;
export type ServiceSessionRow = Selectable<ServiceSessionsTable>;
export type ServiceTokenRow = Selectable<ServiceTokensTable>;

export type TokenInContext = NonNullable<Awaited<ReturnType<ServiceSessionsRepository['findTokenInContext']>>>;

type JoinedUser = Pick<TokenInContext, 'user_id' | 'email' | 'email_verified' | 'full_name' | 'username' | 'profile_picture' | 'groups'>;

/**
 * The account a token or code belongs to, as read with it. Deleting an account deletes its codes
 * and sessions with it (the foreign keys cascade), so every such row has one.
 */
export function userOf(row: JoinedUser) {
  return { id: row.user_id, email: row.email, email_verified: row.email_verified, full_name: row.full_name, username: row.username, profile_picture: row.profile_picture, groups: row.groups };
}

/** Codes, service sessions and their tokens: the OIDC provider's state, all in the database. */
export class ServiceSessionsRepository {
  private readonly onPostgres: boolean;

  constructor(private readonly db: Database) {
    this.onPostgres = isPostgres(db);
  }

  /**
   * Stores a code only while the sign-in it is issued under is live: false, storing nothing, once
   * that sign-in has ended (it may have since it was read). On PostgreSQL the sign-in's row is
   * locked for share, as openSessionInOneStatement does: a revoke under way is waited for and seen.
   */
  async insertCode(code: Insertable<OauthCodesTable>): Promise<boolean> {
    const whileLive = this.db
      .selectFrom('user_sessions')
      // Cast: PostgreSQL would read a bound value in a select list as text.
      .select(CODE_COLUMNS.map((column) => sql`cast(${code[column] ?? null} as ${sql.raw(CODE_TYPES[column])})`.as(column)))
      .where('id', '=', code.user_session_id)
      .where('revoked_at', 'is', null)
      .$if(this.onPostgres, (query) => query.forShare());
    const stored = await this.db.insertInto('oauth_codes').columns(CODE_COLUMNS).expression(whileLive).executeTakeFirst();
    return stored.numInsertedOrUpdatedRows === 1n;
  }

  /** Read only when a code comes back a second time: plain Kysely, not compiled once. */
  findCode(codeHash: string): Promise<CodeRow | undefined> {
    return this.db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
  }

  /** A code with its user's claims, in one query. Whether the sign-in behind it is still open is for the write that uses the code to check. */
  async findCodeInContext(codeHash: string) {
    return firstRow(await codeInContext(this.db, { codeHash }));
  }

  /** Marks a code used, unless it already was (a replay, or a concurrent exchange). */
  async useCode(codeHash: string, now: number): Promise<void> {
    await this.db.updateTable('oauth_codes').set({ used_at: now }).where('code_hash', '=', codeHash).where('used_at', 'is', null).execute();
  }

  /**
   * Uses a code and creates the service session it grants with its first tokens, in one
   * transaction; false, changing nothing, when the code was already used or the sign-in behind
   * it has ended (checked again here: it may have ended since the code was read).
   */
  async openSessionWithCode(session: ServiceSessionRow, codeHash: string, tokens: Array<Insertable<ServiceTokensTable>>): Promise<boolean> {
    if (this.onPostgres) {
      const values = tokenValues(tokens, rowValues(session, SESSION_COLUMNS, 'session.', { codeHash }));
      return (await openSessionInOneStatement(tokens.length)(this.db, values)).rows.length === 1;
    }
    return sqliteTransaction(this.db, (direct) => {
      if (changedRows(useCodeForSession.now(this.db, direct, { codeHash, now: session.issued_at, sessionId: session.id, userSessionId: session.user_session_id })) !== 1) return false;
      insertSession.now(this.db, direct, rowValues(session, SESSION_COLUMNS));
      insertTokenRows(tokens.length).now(this.db, direct, tokenValues(tokens));
      return true;
    });
  }

  /**
   * A presented token's row with what decides whether it still works (its session, its service)
   * and the user's claims, in one query: userinfo is the hottest OIDC call. Undefined when no
   * row has the token's key or its secret does not match.
   */
  async findTokenInContext(token: string) {
    const { key, verifierHash } = presentedKey(token);
    const row = firstRow(await tokenInContext(this.db, { key }));
    return row && verifierMatches(row.verifier_hash, verifierHash) ? row : undefined;
  }

  findSession(id: string): Promise<ServiceSessionRow | undefined> {
    return this.db.selectFrom('service_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Uses a refresh token once and stores its successors, sliding the session; false on reuse. */
  async rotate(refreshKey: string, sessionId: string, now: number, expiresAt: number, tokens: Array<Insertable<ServiceTokensTable>>): Promise<boolean> {
    if (this.onPostgres) return (await rotateInOneStatement(tokens.length)(this.db, tokenValues(tokens, { refreshKey, sessionId, now, expiresAt }))).rows.length === 1;
    return sqliteTransaction(this.db, (direct) => {
      if (changedRows(useRefreshToken.now(this.db, direct, { refreshKey, now })) !== 1) return false;
      insertTokenRows(tokens.length).now(this.db, direct, tokenValues(tokens));
      slideSession.now(this.db, direct, { sessionId, now, expiresAt });
      return true;
    });
  }

  /** Ends a service session: every token it issued stops working at once. Answers whether it was still open. */
  async revokeSession(id: string, now: number): Promise<boolean> {
    const ended = await this.db.updateTable('service_sessions').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
    return ended.numUpdatedRows > 0n;
  }

  /**
   * Ends every open service session of a user, at every service: the tokens they issued stop
   * working at once. A disabled account and a changed password both end them. Answers how many ended.
   */
  async revokeAllForUser(userId: string, now: number, db: Database = this.db): Promise<number> {
    const ended = await db.updateTable('service_sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst();
    return Number(ended.numUpdatedRows);
  }

  async revokeToken(tokenKey: string): Promise<void> {
    await this.db.deleteFrom('service_tokens').where('token_key', '=', tokenKey).execute();
  }

  /** Moves sessions' last activity forward (never back: a batch may arrive after a rotation). */
  async touchMany(entries: Array<[id: string, at: number]>): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      for (const [id, at] of entries) await tx.updateTable('service_sessions').set({ last_active: at }).where('id', '=', id).where('last_active', '<', at).execute();
    });
  }

  async consentedScopes(userId: string, serviceId: string): Promise<string[]> {
    const row = await this.db.selectFrom('consents').select('scope').where('user_id', '=', userId).where('service_id', '=', serviceId).executeTakeFirst();
    return row ? row.scope.split(' ') : [];
  }

  async recordConsent(userId: string, serviceId: string, scopes: string[], now: number): Promise<void> {
    const scope = scopes.join(' ');
    await this.db
      .insertInto('consents')
      .values({ user_id: userId, service_id: serviceId, scope, granted_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'service_id']).doUpdateSet({ scope, granted_at: now }))
      .execute();
  }
}

// The queries every userinfo call and refresh grant runs, compiled once (see preparedQuery).
const tokenInContext = preparedQuery((db, value) =>
  db
    .selectFrom('service_tokens')
    .innerJoin('service_sessions', 'service_sessions.id', 'service_tokens.service_session_id')
    .innerJoin('api_services', 'api_services.id', 'service_sessions.service_id')
    .innerJoin('users', 'users.id', 'service_sessions.user_id')
    .selectAll('service_tokens')
    .select([
      'service_sessions.user_id',
      'service_sessions.service_id',
      'service_sessions.revoked_at as session_revoked_at',
      'service_sessions.expires_at as session_expires_at',
      'service_sessions.auth_time',
      'service_sessions.amr',
      'api_services.is_active as service_is_active',
      'api_services.grant_types as service_grant_types',
      'users.email',
      'users.email_verified',
      'users.full_name',
      'users.username',
      'users.profile_picture',
      'users.groups',
      'users.disabled_at as user_disabled_at',
    ])
    .where('service_tokens.token_key', '=', value<string>('key')),
);

const useRefreshToken = preparedQuery((db, value) =>
  db.updateTable('service_tokens').set({ used_at: value('now') }).where('token_key', '=', value<string>('refreshKey')).where('used_at', 'is', null),
);

const slideSession = preparedQuery((db, value) =>
  db.updateTable('service_sessions').set({ last_active: value('now'), expires_at: value('expiresAt') }).where('id', '=', value<string>('sessionId')),
);

const TOKEN_COLUMNS = ['token_key', 'verifier_hash', 'kind', 'scope', 'service_session_id', 'created_at', 'expires_at', 'used_at'] as const;
// A grant issues an access token, and a refresh token with it when the service may refresh.
const insertTokenRows = preparedQueryPerCount((db, value, count) =>
  db.insertInto('service_tokens').values(Array.from({ length: count }, (_, at) => placeholderRow<Insertable<ServiceTokensTable>>(value, TOKEN_COLUMNS, `${at}.`))),
);

/** The values of a grant's token rows, each column prefixed by the row's place (`0.scope`). */
function tokenValues(tokens: Array<Insertable<ServiceTokensTable>>, into: Record<string, unknown> = {}) {
  tokens.forEach((token, at) => rowValues(token, TOKEN_COLUMNS, `${at}.`, into));
  return into;
}

/**
 * A grant's writes on SQLite: one transaction run synchronously, so that no other request's
 * statement can land inside it (PostgreSQL writes in one statement instead).
 */
async function sqliteTransaction(db: Database, work: (direct: DirectSqlite) => boolean): Promise<boolean> {
  const done = await onDirectSqlite(db, (direct) => direct.transaction(() => work(direct)));
  if (done === undefined) throw new Error('a grant on SQLite needs the database, not a transaction');
  return done;
}

const codeInContext = preparedQuery((db, value) =>
  db
    .selectFrom('oauth_codes')
    .innerJoin('users', 'users.id', 'oauth_codes.user_id')
    .selectAll('oauth_codes')
    .select(['users.email', 'users.email_verified', 'users.full_name', 'users.username', 'users.profile_picture', 'users.groups'])
    .where('oauth_codes.code_hash', '=', value<string>('codeHash')),
);

// As openSessionInOneStatement: only while the sign-in behind the code is live. SQLite runs one
// writer at a time, so a revoke has committed before this transaction or waits for it.
const useCodeForSession = preparedQuery((db, value) =>
  db
    .updateTable('oauth_codes')
    .set({ used_at: value('now'), service_session_id: value('sessionId') })
    .where('code_hash', '=', value<string>('codeHash'))
    .where('used_at', 'is', null)
    .where(({ exists, selectFrom }) => exists(selectFrom('user_sessions').select('id').where('id', '=', value<string>('userSessionId')).where('revoked_at', 'is', null))),
);

const SESSION_COLUMNS = ['id', 'service_id', 'user_id', 'user_session_id', 'scope', 'ip_address', 'auth_time', 'amr', 'issued_at', 'expires_at', 'last_active', 'revoked_at'] as const;
const insertSession = preparedQuery((db, value) => db.insertInto('service_sessions').values(placeholderRow<ServiceSessionRow>(value, SESSION_COLUMNS)));

const CODE_TYPES: ColumnTypes<OauthCodesTable> = {
  code_hash: 'text', service_id: 'text', user_id: 'text', user_session_id: 'text', redirect_uri: 'text', redirect_uri_sent: 'bigint', scope: 'text', nonce: 'text',
  code_challenge: 'text', code_challenge_method: 'text', auth_time: 'bigint', amr: 'text', ip_address: 'text', created_at: 'bigint', expires_at: 'bigint', used_at: 'bigint',
  service_session_id: 'text',
};
const CODE_COLUMNS = Object.keys(CODE_TYPES) as Array<keyof OauthCodesTable & string>;
