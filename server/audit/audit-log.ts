import type { FastifyRequest } from 'fastify';
import type { Expression, ExpressionBuilder, Insertable, SqlBool } from 'kysely';
import { AUDIT_EVENT_GROUPS, type AuditEvent, type AuditEventGroup, type AuditEventKind } from '../../contract/audit';
import type { Database } from '../db/database';
import { placeholderRow, preparedQuery, rowValues } from '../db/prepared-query';
import type { AuditEventsTable, DB } from '../db/schema';
import { contains, totalPages } from '../db/sql-search';
import { timeOrderedUuid } from '../db/time-ordered-uuid';
import { deviceInfoFromUserAgent } from '../sessions/device-info';
import type { ClientInfo } from '../sessions/user-sessions-service';

/** Who did it and from where. A null `actorId` is no account: the command line, or whoever tried a refused sign-in or a reused token. */
export type AuditSource = { actorId: string | null; client?: ClientInfo | undefined };

export type AuditRecord = {
  kind: AuditEventKind;
  /** The account the event concerns, when it concerns one. */
  userId?: string | null | undefined;
  serviceId?: string | null | undefined;
  detail?: string | null | undefined;
};

/** The source of a request: the signed-in account (if any), its address and browser. */
export const requestSource = (request: FastifyRequest): AuditSource => ({
  actorId: request.auth?.userId ?? null,
  client: { ip: request.ip, userAgent: request.headers['user-agent'] },
});

export type AuditQuery = { page: number; size: number; search?: string | undefined; userId?: string | undefined; ip?: string | undefined; group?: AuditEventGroup | undefined };

/**
 * The audit log (ASVS 7.2): sign-ins, refused ones, security changes to accounts, and every
 * administrator's change to accounts and services. Each is written, and awaited, once its change
 * is made: an answer of success means the change is in the log.
 */
export class AuditLog {
  constructor(
    private readonly db: Database,
    private readonly clock: () => number,
  ) {}

  /** Writes the event; `db`, a transaction of the caller's, makes it part of the change it records. */
  async record(event: AuditRecord, source: AuditSource, db: Database = this.db): Promise<void> {
    const at = this.clock();
    const row: AuditEventRow = {
      id: timeOrderedUuid(at),
      at,
      kind: event.kind,
      user_id: event.userId ?? null,
      actor_id: source.actorId,
      service_id: event.serviceId ?? null,
      ip_address: source.client?.ip ?? null,
      device_info: source.client ? deviceInfoFromUserAgent(source.client.userAgent) : null,
      detail: event.detail ?? null,
    };
    await insertEvent(db, rowValues(row, EVENT_COLUMNS));
  }

  /** Records what a request did, as its signed-in account from its address, then answers `answer`: a route's last line. */
  async recordedAnswer<T>(request: FastifyRequest, event: AuditRecord, answer: T): Promise<T> {
    await this.record(event, requestSource(request));
    return answer;
  }

  /**
   * A page of events, newest first: all, one account's, one address's, one group's, or those whose
   * account, service or address matches `search`.
   */
  async page({ page, size, search, userId, ip, group }: AuditQuery): Promise<{ items: AuditEvent[]; total_pages: number }> {
    // Filtered on audit_events alone, so the count needs no joins: SQLite keeps a LEFT JOIN it
    // does not use, and counted 100,000 events in 28 ms with the three joins, 0.4 ms without.
    const matching = (eb: ExpressionBuilder<DB, 'audit_events'>) => {
      const terms: Array<Expression<SqlBool>> = [];
      if (userId) terms.push(eb('audit_events.user_id', '=', userId));
      if (ip) terms.push(eb('audit_events.ip_address', '=', ip));
      if (group) terms.push(eb('audit_events.kind', 'in', [...AUDIT_EVENT_GROUPS[group]]));
      if (search?.trim()) {
        const accounts = eb.selectFrom('users').select('users.id').where((users) => users.or([contains('users.full_name', search), contains('users.email', search)]));
        const services = eb.selectFrom('api_services').select('api_services.id').where(contains('api_services.name', search));
        // Deleted, an account or a service is found by the name its deletion recorded, with all its events.
        const deletions = (kind: AuditEventKind) => eb.selectFrom('audit_events as deletion').where('deletion.kind', '=', kind).where(contains('deletion.detail', search));
        terms.push(
          eb.or([
            eb('audit_events.user_id', 'in', accounts),
            eb('audit_events.service_id', 'in', services),
            eb('audit_events.user_id', 'in', deletions('account-deleted').select('deletion.user_id')),
            eb('audit_events.service_id', 'in', deletions('service-deleted').select('deletion.service_id')),
            contains('audit_events.detail', search),
            contains('audit_events.ip_address', search),
          ]),
        );
      }
      return eb.and(terms);
    };
    const { count } = await this.db
      .selectFrom('audit_events')
      .where(matching)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    const rows = await this.selected(this.joined().where(matching))
      .limit(size)
      .offset((page - 1) * size)
      .execute();
    return { items: rows.map(toAuditEvent), total_pages: totalPages(Number(count), size) };
  }

  /** The latest events of one account, for its owner. */
  async latestFor(userId: string, limit: number): Promise<AuditEvent[]> {
    const rows = await this.selected(this.joined().where('audit_events.user_id', '=', userId))
      .limit(limit)
      .execute();
    return rows.map((row) => asOwnerSees(toAuditEvent(row)));
  }

  private joined() {
    return this.db
      .selectFrom('audit_events')
      .leftJoin('users as subject', 'subject.id', 'audit_events.user_id')
      .leftJoin('users as actor', 'actor.id', 'audit_events.actor_id')
      .leftJoin('api_services', 'api_services.id', 'audit_events.service_id');
  }

  private selected(query: ReturnType<AuditLog['joined']>) {
    return query
      .select([
        'audit_events.id', 'audit_events.at', 'audit_events.kind', 'audit_events.user_id', 'audit_events.actor_id', 'audit_events.service_id',
        'audit_events.ip_address', 'audit_events.device_info', 'audit_events.detail',
        'subject.full_name as user_name', 'subject.email as user_email', 'subject.profile_picture as user_picture',
        'actor.full_name as actor_name', 'api_services.name as service_name', 'api_services.icon_url as service_icon',
      ])
      .orderBy('audit_events.at', 'desc')
      .orderBy('audit_events.id', 'desc');
  }
}

type JoinedRow = {
  id: string; at: number; kind: string; user_id: string | null; actor_id: string | null; service_id: string | null;
  ip_address: string | null; device_info: string | null; detail: string | null;
  user_name: string | null; user_email: string | null; user_picture: string | null; actor_name: string | null; service_name: string | null; service_icon: string | null;
};

function toAuditEvent(row: JoinedRow): AuditEvent {
  return {
    id: row.id,
    at: new Date(Number(row.at)).toISOString(),
    kind: row.kind as AuditEventKind,
    user_id: row.user_id,
    user: row.user_name === null ? null : { full_name: row.user_name, email: row.user_email ?? '', profile_picture: row.user_picture },
    actor_id: row.actor_id,
    actor: row.actor_name === null ? null : { full_name: row.actor_name },
    service_id: row.service_id,
    service: row.service_name === null ? null : { name: row.service_name, icon_url: row.service_icon },
    ip_address: row.ip_address,
    device_info: row.device_info,
    detail: row.detail,
  };
}

/**
 * An event as the account's owner sees it: what an administrator did says only that an
 * administrator did it (`actor_id` is not theirs), not who, nor from which address and device.
 */
function asOwnerSees(event: AuditEvent): AuditEvent {
  const byAdministrator = event.actor_id !== null && event.actor_id !== event.user_id;
  return byAdministrator ? { ...event, actor: null, ip_address: null, device_info: null } : event;
}

type AuditEventRow = Insertable<AuditEventsTable>;
const EVENT_COLUMNS = ['id', 'at', 'kind', 'user_id', 'actor_id', 'service_id', 'ip_address', 'device_info', 'detail'] as const;
// Every sign-in writes one: compiled once (see preparedQuery).
const insertEvent = preparedQuery((db, value) => db.insertInto('audit_events').values(placeholderRow<AuditEventRow>(value, EVENT_COLUMNS)));
