import type { SignedInService } from '../../contract/accounts';
import type { Database } from '../db/database';
import { AppError } from '../errors';

/** The services a person is signed in to through Home Guard (their live service sessions), by service. */
export class SignedInServices {
  constructor(
    private readonly db: Database,
    private readonly clock: () => number,
  ) {}

  async list(userId: string): Promise<SignedInService[]> {
    const rows = await this.db
      .selectFrom('service_sessions')
      .innerJoin('api_services', 'api_services.id', 'service_sessions.service_id')
      .select((eb) => ['api_services.id', 'api_services.name', 'api_services.icon_url', eb.fn.countAll<number>().as('sessions'), eb.fn.max('service_sessions.last_active').as('last_active')])
      .where('service_sessions.user_id', '=', userId)
      .where('service_sessions.revoked_at', 'is', null)
      .where('service_sessions.expires_at', '>', this.clock())
      .groupBy(['api_services.id', 'api_services.name', 'api_services.icon_url'])
      .orderBy('last_active', 'desc')
      .orderBy('api_services.name')
      .execute();
    return rows.map((row) => ({ service_id: row.id, name: row.name, icon_url: row.icon_url, sessions: Number(row.sessions), last_active: new Date(Number(row.last_active)).toISOString() }));
  }

  /**
   * Ends every live session the person has at one service (its tokens stop working at once) and
   * withdraws their approval: the service has to ask again, even with prompt=none.
   */
  async signOut(userId: string, serviceId: string): Promise<void> {
    const now = this.clock();
    await this.db.transaction().execute(async (tx) => {
      const ended = await tx
        .updateTable('service_sessions')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('service_id', '=', serviceId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (ended.numUpdatedRows === 0n) throw AppError.notFound('signed-in service');
      await tx.deleteFrom('consents').where('user_id', '=', userId).where('service_id', '=', serviceId).execute();
    });
  }
}
