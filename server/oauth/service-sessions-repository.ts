import type { Insertable, Selectable } from 'kysely';
import type { Database } from '../db/database';
import type { OauthCodesTable, ServiceSessionsTable, ServiceTokensTable } from '../db/schema';

export type CodeRow = Selectable<OauthCodesTable>;
export type ServiceSessionRow = Selectable<ServiceSessionsTable>;
export type ServiceTokenRow = Selectable<ServiceTokensTable>;

/** Codes, service sessions and their tokens: the OIDC provider's state, all in the database. */
export class ServiceSessionsRepository {
  constructor(private readonly db: Database) {}

  async insertCode(code: Insertable<OauthCodesTable>): Promise<void> {
    await this.db.insertInto('oauth_codes').values(code).execute();
  }

  findCode(codeHash: string): Promise<CodeRow | undefined> {
    return this.db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
  }

  /** Marks a code used; false when it already was (a replay, or a concurrent exchange). */
  async useCode(codeHash: string, now: number): Promise<boolean> {
    const result = await this.db.updateTable('oauth_codes').set({ used_at: now }).where('code_hash', '=', codeHash).where('used_at', 'is', null).executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** Creates the service session of a code exchange with its first tokens, in one transaction. */
  async openSession(session: ServiceSessionRow, codeHash: string, tokens: Array<Insertable<ServiceTokensTable>>): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.insertInto('service_sessions').values(session).execute();
      await tx.updateTable('oauth_codes').set({ service_session_id: session.id }).where('code_hash', '=', codeHash).execute();
      for (const token of tokens) await tx.insertInto('service_tokens').values(token).execute();
    });
  }

  findToken(tokenHash: string): Promise<ServiceTokenRow | undefined> {
    return this.db.selectFrom('service_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  findSession(id: string): Promise<ServiceSessionRow | undefined> {
    return this.db.selectFrom('service_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Uses a refresh token once and stores its successors, sliding the session; false on reuse. */
  async rotate(refreshHash: string, sessionId: string, now: number, expiresAt: number, tokens: Array<Insertable<ServiceTokensTable>>): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const used = await tx.updateTable('service_tokens').set({ used_at: now }).where('token_hash', '=', refreshHash).where('used_at', 'is', null).executeTakeFirst();
      if (used.numUpdatedRows !== 1n) return false;
      for (const token of tokens) await tx.insertInto('service_tokens').values(token).execute();
      await tx.updateTable('service_sessions').set({ last_active: now, expires_at: expiresAt }).where('id', '=', sessionId).execute();
      return true;
    });
  }

  /** Ends a service session: every token it issued stops working at once. */
  async revokeSession(id: string, now: number): Promise<void> {
    await this.db.updateTable('service_sessions').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
  }

  async revokeToken(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('service_tokens').where('token_hash', '=', tokenHash).execute();
  }

  async touch(id: string, now: number): Promise<void> {
    await this.db.updateTable('service_sessions').set({ last_active: now }).where('id', '=', id).execute();
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
