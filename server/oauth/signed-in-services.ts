import type { SignedInService } from '../../contract/accounts';
import type { Database } from '../db/database';
import { AppError } from '../errors';

/**
 * The services a person signed in to through Home Guard (their live service sessions) or approved
 * on the consent screen. An approval outlives the sessions (a service's own sign-out, a password
 * change): it is listed here, so the person can see it and withdraw it.
 */
export class SignedInServices {
  constructor(
    private readonly db: Database,
    private readonly clock: () => number,
  ) {}

  async list(userId: string): Promise<SignedInService[]> {
    const [sessions, approvals] = await Promise.all([
      this.db
        .selectFrom('service_sessions')
        .innerJoin('api_services', 'api_services.id', 'service_sessions.service_id')
        .select((eb) => ['api_services.id', 'api_services.name', 'api_services.icon_url', eb.fn.countAll<number>().as('sessions'), eb.fn.max('service_sessions.last_active').as('last_active')])
        .where('service_sessions.user_id', '=', userId)
        .where('service_sessions.revoked_at', 'is', null)
        .where('service_sessions.expires_at', '>', this.clock())
        .groupBy(['api_services.id', 'api_services.name', 'api_services.icon_url'])
        .execute(),
      this.db.selectFrom('consents').innerJoin('api_services', 'api_services.id', 'consents.service_id').select(['api_services.id', 'api_services.name', 'api_services.icon_url', 'consents.granted_at']).where('consents.user_id', '=', userId).execute(),
    ]);
    const byService = new Map<string, SignedInService & { latest: number }>();
    for (const row of sessions) {
      const lastActive = Number(row.last_active);
      byService.set(row.id, { service_id: row.id, name: row.name, icon_url: row.icon_url, sessions: Number(row.sessions), last_active: new Date(lastActive).toISOString(), approved_at: null, latest: lastActive });
    }
    for (const row of approvals) {
      const approvedAt = Number(row.granted_at);
      const listed = byService.get(row.id);
      if (listed) listed.approved_at = new Date(approvedAt).toISOString();
      else byService.set(row.id, { service_id: row.id, name: row.name, icon_url: row.icon_url, sessions: 0, last_active: null, approved_at: new Date(approvedAt).toISOString(), latest: approvedAt });
    }
    return [...byService.values()].sort((a, b) => b.latest - a.latest || a.name.localeCompare(b.name)).map(({ latest: _latest, ...service }) => service);
  }

  /**
   * Ends every live session the person has at one service (its tokens stop working at once) and
   * withdraws their approval: the service has to ask again, even with prompt=none. Answers how
   * many sessions ended (0: only the approval was withdrawn).
   */
  async signOut(userId: string, serviceId: string): Promise<number> {
    const now = this.clock();
    return this.db.transaction().execute(async (tx) => {
      const ended = await tx
        .updateTable('service_sessions')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('service_id', '=', serviceId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      const withdrawn = await tx.deleteFrom('consents').where('user_id', '=', userId).where('service_id', '=', serviceId).executeTakeFirst();
      // A code given just before, not yet exchanged, would open a session after the approval is gone.
      await tx.deleteFrom('oauth_codes').where('user_id', '=', userId).where('service_id', '=', serviceId).where('used_at', 'is', null).execute();
      if (ended.numUpdatedRows === 0n && withdrawn.numDeletedRows === 0n) throw AppError.notFound('signed-in service');
      return Number(ended.numUpdatedRows);
    });
  }
}
