import type { ServiceSession, UserSession } from '../../contract/admin';
import type { Database } from '../db/database';
import { contains, isoOrNull, totalPages } from '../db/sql-search';
import { AppError } from '../errors';
import type { ServiceSessionsRepository } from '../oauth/service-sessions-repository';
import type { UserSessionsRepository } from '../sessions/user-sessions-repository';

export type Page = { page: number; size: number; search?: string | undefined };

type SessionLife = { id: string; user_id: string; full_name: string; profile_picture: string | null; ip_address: string | null; issued_at: number; expires_at: number; last_active: number; revoked_at: number | null };

/** The fields every session row shares, as the admin API shows them. */
function sessionFields(row: SessionLife, now: number) {
  return {
    id: row.id,
    user_id: row.user_id,
    user: { full_name: row.full_name, profile_picture: row.profile_picture },
    ip_address: row.ip_address,
    is_active: row.revoked_at === null && row.expires_at > now,
    issued_at: new Date(row.issued_at).toISOString(),
    expires_at: isoOrNull(row.expires_at),
    last_active: isoOrNull(row.last_active),
    revoked_at: isoOrNull(row.revoked_at),
  };
}

/** The session tables of the admin area: newest first, a page at a time, revocable. */
export class SessionsAdmin {
  constructor(
    private readonly db: Database,
    private readonly userSessionRows: UserSessionsRepository,
    private readonly serviceSessionRows: ServiceSessionsRepository,
    private readonly clock: () => number,
  ) {}

  async userSessions({ page, size, search }: Page): Promise<{ items: UserSession[]; total_pages: number }> {
    let query = this.db.selectFrom('user_sessions').innerJoin('users', 'users.id', 'user_sessions.user_id');
    if (search?.trim()) query = query.where((eb) => eb.or([contains('users.full_name', search), contains('users.email', search)]));
    const { count } = await query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    const rows = await query
      .select(['user_sessions.id', 'user_sessions.user_id', 'user_sessions.device_info', 'user_sessions.ip_address', 'user_sessions.issued_at', 'user_sessions.expires_at', 'user_sessions.last_active', 'user_sessions.revoked_at', 'users.full_name', 'users.profile_picture'])
      .orderBy('user_sessions.issued_at', 'desc')
      .orderBy('user_sessions.id')
      .limit(size)
      .offset((page - 1) * size)
      .execute();
    const now = this.clock();
    return {
      total_pages: totalPages(Number(count), size),
      items: rows.map((row) => ({ ...sessionFields(row, now), device_info: row.device_info })),
    };
  }

  async serviceSessions({ page, size, search }: Page): Promise<{ items: ServiceSession[]; total_pages: number }> {
    let query = this.db
      .selectFrom('service_sessions')
      .innerJoin('users', 'users.id', 'service_sessions.user_id')
      .innerJoin('api_services', 'api_services.id', 'service_sessions.service_id');
    if (search?.trim()) {
      query = query.where((eb) => eb.or([contains('users.full_name', search), contains('users.email', search), contains('api_services.name', search), contains('api_services.client_id', search)]));
    }
    const { count } = await query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    const rows = await query
      .select([
        'service_sessions.id', 'service_sessions.service_id', 'service_sessions.user_id', 'service_sessions.ip_address', 'service_sessions.issued_at',
        'service_sessions.expires_at', 'service_sessions.last_active', 'service_sessions.revoked_at',
        'users.full_name', 'users.profile_picture', 'api_services.name', 'api_services.icon_url', 'api_services.client_id', 'api_services.is_active as service_active',
      ])
      .orderBy('service_sessions.issued_at', 'desc')
      .orderBy('service_sessions.id')
      .limit(size)
      .offset((page - 1) * size)
      .execute();
    const now = this.clock();
    return {
      total_pages: totalPages(Number(count), size),
      items: rows.map((row) => {
        const fields = sessionFields(row, now);
        // A disabled service's sessions answer nothing while it is off: not active, though not ended.
        return { ...fields, is_active: fields.is_active && row.service_active === 1, service_id: row.service_id, api_service: { name: row.name, icon_url: row.icon_url }, client_id: row.client_id };
      }),
    };
  }

  /**
   * Revokes at once, in the database: every replica refuses the session's tokens
   * next time, and the tokens of the services signed in to from it. `ended`: it was still open (a
   * second revoke finds it ended and changes nothing).
   */
  async revokeUserSession(id: string): Promise<{ userId: string; ended: boolean }> {
    const session = await this.userSessionRows.findById(id);
    if (!session) throw AppError.notFound('session');
    return { userId: session.user_id, ended: await this.userSessionRows.revoke(id, this.clock(), true) };
  }

  async revokeServiceSession(id: string): Promise<{ userId: string; serviceId: string; ended: boolean }> {
    const session = await this.serviceSessionRows.findSession(id);
    if (!session) throw AppError.notFound('session');
    return { userId: session.user_id, serviceId: session.service_id, ended: await this.serviceSessionRows.revokeSession(id, this.clock()) };
  }
}
