import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { apiServiceInputSchema, apiServiceUpdateSchema, ApiService } from '../../contract/services';
import { AppError } from '../errors';
import { isUniqueViolation } from '../db/constraint-violations';
import { type ApiServiceRow, type ApiServicesRepository, serviceEditVersion, toApiService } from './api-services-repository';
import { hashClientSecret, newClientId, newClientSecret } from './client-secrets';

type ApiServiceInput = z.output<typeof apiServiceInputSchema>;
type ApiServiceUpdate = z.output<typeof apiServiceUpdateSchema>;
type CreatedService = { id: string; credentials: { client_id: string; client_secret: string | null }; repeated: boolean };

/** How long a creation sent again gets the service it made (see repeatedCreation). */
const REPEAT_WITHIN_MS = 60 * 60_000;

/** A new service's row as the form sets it: all but its identity, secret and times. */
const storedSettings = (input: ApiServiceInput) => ({
  name: input.name,
  description: input.description,
  redirect_uris: JSON.stringify(input.redirect_uris),
  post_logout_redirect_uris: JSON.stringify(input.post_logout_redirect_uris ?? []),
  scopes: JSON.stringify([...new Set(input.scopes)]),
  grant_types: JSON.stringify([...new Set(input.grant_types)]),
  is_active: input.is_active === false ? 0 : 1,
  icon_url: input.icon_url ?? null,
  launch_url: input.launch_url ?? null,
  id_token_signed_response_alg: input.id_token_signed_response_alg ?? 'RS256',
  allowed_groups: JSON.stringify(input.allowed_groups ?? []),
  require_two_step: input.require_two_step ? 1 : 0,
  public_client: input.public_client ? 1 : 0,
} as const);

const SETTINGS = ['name', 'description', 'redirect_uris', 'post_logout_redirect_uris', 'scopes', 'grant_types', 'icon_url', 'launch_url', 'id_token_signed_response_alg', 'allowed_groups'] as const;

/**
 * What an edit changed, for the audit log: the settings by name, and the two that weaken or
 * strengthen sign-ins by their direction ("who turned two-step off?"). Turning the service on or
 * off is an event of its own.
 */
export function changedServiceFields(before: ApiService, after: ApiService): string[] {
  const changed: string[] = SETTINGS.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
  if (before.require_two_step !== after.require_two_step) changed.push(after.require_two_step ? 'two-step-required' : 'two-step-not-required');
  if (before.public_client !== after.public_client) changed.push(after.public_client ? 'made-public' : 'made-confidential');
  return changed;
}

/** Services (OpenID Connect clients) as administrators manage them. */
export class ApiServicesService {
  constructor(
    private readonly services: ApiServicesRepository,
    private readonly clock: () => number,
  ) {}

  async list(search?: string): Promise<ApiService[]> {
    return (await this.services.list(search?.trim() || undefined)).map(toApiService);
  }

  async get(id: string): Promise<ApiService> {
    const row = await this.services.findById(id);
    if (!row) throw AppError.notFound('API service');
    return toApiService(row);
  }

  /**
   * Creates a service; its secret is returned this once and kept only as a hash. A public client is
   * given none. With a `creationKey` (an Idempotency-Key) used before, the service made then is
   * answered instead (see repeatedCreation).
   */
  async create(input: ApiServiceInput, creationKey?: string): Promise<CreatedService> {
    const made = creationKey === undefined ? undefined : await this.services.findByCreationKey(creationKey);
    if (made) return this.repeatedCreation(made, input);
    const now = this.clock();
    const id = randomUUID();
    const clientId = newClientId();
    const secret = newClientSecret();
    try {
      await this.services.insert({
        id,
        ...storedSettings(input),
        client_id: clientId,
        client_secret_hash: hashClientSecret(secret),
        created_at: now,
        updated_at: now,
        creation_key: creationKey ?? null,
      });
    } catch (error) {
      // The same creation, sent again while the first was still being made: the first one won.
      const first = creationKey !== undefined && isUniqueViolation(error) ? await this.services.findByCreationKey(creationKey) : undefined;
      if (first) return this.repeatedCreation(first, input);
      throw error;
    }
    return { id, credentials: { client_id: clientId, client_secret: input.public_client ? null : secret }, repeated: false };
  }

  /**
   * A creation sent again, its answer lost on the way: the service it made, with a new secret
   * (nobody saw the first, which stops working). Within an hour and with the same settings only: a
   * key sent later, or with others (another service, or this one changed since), is refused rather
   * than taken to mean this service, whose secret may be in use by then.
   */
  private async repeatedCreation(made: ApiServiceRow, input: ApiServiceInput): Promise<CreatedService> {
    const sameSettings = Object.entries(storedSettings(input)).every(([column, value]) => made[column as keyof ApiServiceRow] === value);
    if (this.clock() - made.created_at > REPEAT_WITHIN_MS || !sameSettings) throw AppError.creationKeyUsed();
    const credentials = made.public_client === 1 ? { client_id: made.client_id, client_secret: null } : await this.regenerateSecret(made.id);
    return { id: made.id, credentials, repeated: true };
  }

  /**
   * Answers the service as it is now, whether it was turned on or off (`is_active`, when sent), and
   * what else changed (changedServiceFields): the form sent back as it was changes nothing.
   */
  async update(id: string, input: ApiServiceUpdate): Promise<{ service: ApiService; turned: boolean; changed: string[] }> {
    const row = await this.services.findById(id);
    if (!row) throw AppError.notFound('API service');
    if (input.edit_version !== undefined && input.edit_version !== serviceEditVersion(row)) throw AppError.changedMeanwhile('service');
    const current = toApiService(row);
    const becomesPublic = input.public_client === true && !current.public_client;
    const found = await this.services.update(id, {
      name: input.name,
      description: input.description,
      redirect_uris: JSON.stringify(input.redirect_uris),
      ...(input.post_logout_redirect_uris ? { post_logout_redirect_uris: JSON.stringify(input.post_logout_redirect_uris) } : {}),
      scopes: JSON.stringify([...new Set(input.scopes)]),
      ...(input.grant_types ? { grant_types: JSON.stringify([...new Set(input.grant_types)]) } : {}),
      ...(input.icon_url !== undefined ? { icon_url: input.icon_url } : {}),
      ...(input.launch_url !== undefined ? { launch_url: input.launch_url } : {}),
      ...(input.id_token_signed_response_alg ? { id_token_signed_response_alg: input.id_token_signed_response_alg } : {}),
      ...(input.allowed_groups ? { allowed_groups: JSON.stringify(input.allowed_groups) } : {}),
      ...(input.require_two_step !== undefined ? { require_two_step: input.require_two_step ? 1 : 0 } : {}),
      ...(input.public_client !== undefined ? { public_client: input.public_client ? 1 : 0 } : {}),
      ...(input.is_active !== undefined ? { is_active: input.is_active ? 1 : 0 } : {}),
      // The old secret dies with the change, so turning back is never quietly undone: it needs new credentials.
      ...(becomesPublic ? { client_secret_hash: hashClientSecret(newClientSecret()) } : {}),
      updated_at: this.clock(),
    }, input.edit_version === undefined ? undefined : row.updated_at);
    // Changed by someone else between the check above and this write (or deleted meanwhile).
    if (!found) throw (await this.services.findById(id)) ? AppError.changedMeanwhile('service') : AppError.notFound('API service');
    // Its refresh tokens were given to a client that had to show its secret with them; one leaked
    // from its backend would now work with the client_id alone.
    if (becomesPublic) await this.services.endSessions(id, this.clock());
    const service = await this.get(id);
    return { service, turned: service.is_active !== current.is_active, changed: changedServiceFields(current, service) };
  }

  /** To the state wanted, or without one to the other state; answers whether it changed. */
  async toggle(id: string, wanted?: boolean): Promise<{ service: ApiService; changed: boolean }> {
    const current = await this.get(id);
    const active = wanted ?? !current.is_active;
    if (active === current.is_active) return { service: current, changed: false };
    await this.services.update(id, { is_active: active ? 1 : 0, updated_at: this.clock() });
    return { service: await this.get(id), changed: true };
  }

  /**
   * Deletes a service for good: everyone signed in to it is signed out, its client_id and secret
   * authenticate nothing, and a new service is needed to connect the app again. Answers what it
   * was, for the audit log, which keeps its events under the name it had.
   */
  async delete(id: string): Promise<{ id: string; name: string }> {
    const current = await this.get(id);
    if (!(await this.services.delete(id))) throw AppError.notFound('API service');
    return { id, name: current.name };
  }

  /** Issues a new secret; the old one stops working at once. */
  async regenerateSecret(id: string): Promise<{ client_id: string; client_secret: string }> {
    const current = await this.get(id);
    if (current.public_client) throw AppError.publicClientHasNoSecret();
    const secret = newClientSecret();
    await this.services.update(id, { client_secret_hash: hashClientSecret(secret), updated_at: this.clock() });
    return { client_id: current.client_id, client_secret: secret };
  }

  /** What anyone may know of an active service (the consent screen shows it). */
  async publicInfo(clientId: string): Promise<{ name: string; icon_url: string | null; scopes: string[] }> {
    const row = await this.services.findByClientId(clientId);
    if (!row || row.is_active !== 1) throw AppError.notFound('API service');
    const service = toApiService(row);
    return { name: service.name, icon_url: service.icon_url, scopes: service.scopes };
  }
}
