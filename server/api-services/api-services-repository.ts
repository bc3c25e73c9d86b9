import type { Selectable } from 'kysely';
import type { ApiService } from '../../contract/services';
import { contains } from '../db/sql-search';
import type { Database } from '../db/database';
import { firstRow, preparedQuery } from '../db/prepared-query';
import type { ApiServicesTable } from '../db/schema';
import { editVersion } from '../admin/edit-version';
import { storedList } from '../db/stored-list';

export type ApiServiceRow = Selectable<ApiServicesTable>;

export function toApiService(row: ApiServiceRow): ApiService {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    client_id: row.client_id,
    redirect_uris: storedList(row.redirect_uris),
    post_logout_redirect_uris: storedList(row.post_logout_redirect_uris),
    scopes: storedList(row.scopes),
    grant_types: storedList(row.grant_types),
    is_active: row.is_active === 1,
    icon_url: row.icon_url,
    launch_url: row.launch_url,
    id_token_signed_response_alg: row.id_token_signed_response_alg,
    allowed_groups: storedList(row.allowed_groups),
    require_two_step: row.require_two_step === 1,
    public_client: row.public_client === 1,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    edit_version: serviceEditVersion(row),
  };
}

/** What the service edit form shows (see editVersion): not is_active, which Disable and Enable change. */
export const serviceEditVersion = (row: ApiServiceRow) =>
  editVersion([row.name, row.description, row.launch_url, row.icon_url, row.redirect_uris, row.post_logout_redirect_uris, row.scopes, row.grant_types, row.id_token_signed_response_alg, row.allowed_groups, row.require_two_step, row.public_client]);

export class ApiServicesRepository {
  constructor(private readonly db: Database) {}

  async list(search: string | undefined): Promise<ApiServiceRow[]> {
    // The id settles ties: services created in one millisecond keep their places between loads.
    let query = this.db.selectFrom('api_services').selectAll().orderBy('created_at', 'desc').orderBy('id');
    if (search) query = query.where((eb) => eb.or([contains('name', search), contains('client_id', search)]));
    return query.execute();
  }

  findById(id: string): Promise<ApiServiceRow | undefined> {
    return this.db.selectFrom('api_services').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByCreationKey(creationKey: string): Promise<ApiServiceRow | undefined> {
    return this.db.selectFrom('api_services').selectAll().where('creation_key', '=', creationKey).executeTakeFirst();
  }

  async findByClientId(clientId: string): Promise<ApiServiceRow | undefined> {
    return firstRow(await serviceByClientId(this.db, { clientId }));
  }

  async insert(row: ApiServiceRow): Promise<void> {
    await this.db.insertInto('api_services').values(row).execute();
  }

  /** Answers whether it changed the service; with `unchangedSince` (its updated_at), only if nothing else changed it since. */
  async update(id: string, changes: Partial<Omit<ApiServiceRow, 'id' | 'client_id' | 'created_at'>>, unchangedSince?: number): Promise<boolean> {
    let update = this.db.updateTable('api_services').set(changes).where('id', '=', id);
    if (unchangedSince !== undefined) update = update.where('updated_at', '=', unchangedSince);
    return (await update.executeTakeFirst()).numUpdatedRows === 1n;
  }

  /** Deletes the service with its sessions, tokens, codes and approvals (the foreign keys cascade); answers whether it was there. */
  async delete(id: string): Promise<boolean> {
    return (await this.db.deleteFrom('api_services').where('id', '=', id).executeTakeFirst()).numDeletedRows === 1n;
  }

  /** Ends every open session at the service: the tokens they issued stop working at once. */
  async endSessions(serviceId: string, now: number): Promise<void> {
    await this.db.updateTable('service_sessions').set({ revoked_at: now }).where('service_id', '=', serviceId).where('revoked_at', 'is', null).execute();
  }
}

// Client authentication reads it on every token, introspection and revocation request.
const serviceByClientId = preparedQuery((db, value) => db.selectFrom('api_services').selectAll().where('client_id', '=', value<string>('clientId')));
