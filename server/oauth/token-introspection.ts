import type { Introspection, UserClaims } from '../../contract/oidc-endpoints';
import type { ApiServiceRow } from '../api-services/api-services-repository';
import { OAuthError } from './oauth-error';
import type { LastActiveBatch } from './last-active-batch';
import { userOf, type ServiceSessionsRepository, type TokenInContext } from './service-sessions-repository';
import { serviceSignInEnd } from './token-endpoint';
import { claimsFor } from './token-issuer';
import { storedList } from '../db/stored-list';

// The token parameter is required (RFC 7662 §2.1, RFC 7009 §2.1).
const tokenMissing = () => new OAuthError('invalid_request', 'token is missing');

export type LiveToken = TokenInContext & { scopes: string[] };

const INVALID_TOKEN = { 'WWW-Authenticate': 'Bearer error="invalid_token"' };

/** Looks tokens up for userinfo, introspection and revocation. */
export class TokenIntrospection {
  constructor(
    private readonly serviceSessions: ServiceSessionsRepository,
    private readonly lastActive: LastActiveBatch,
    private readonly sessionMaxAgeSeconds: number,
    private readonly issuer: string,
    private readonly clock: () => number,
  ) {}

  /**
   * A token that still works: unexpired, unused (refresh), its session live, its service enabled
   * and its account not disabled, within SESSION_MAX_AGE of the sign-in behind it, as the token
   * endpoint holds it (a token issued before SESSION_MAX_AGE was lowered carries the old end).
   * The account is checked as well as the session: a code exchanged while the account was being
   * disabled can open a session after its sessions were ended.
   */
  async live(token: string): Promise<LiveToken | undefined> {
    const now = this.clock();
    const row = await this.serviceSessions.findTokenInContext(token);
    if (!row || row.expires_at <= now || row.used_at !== null || serviceSignInEnd(row.auth_time, this.sessionMaxAgeSeconds) <= now) return undefined;
    if (row.session_revoked_at !== null || row.session_expires_at <= now || row.service_is_active !== 1 || row.user_disabled_at !== null) return undefined;
    // A refresh token of a service no longer given the refresh grant is refused by the token endpoint.
    if (row.kind === 'refresh' && !storedList(row.service_grant_types).includes('refresh_token')) return undefined;
    return { ...row, scopes: row.scope.split(' ') };
  }

  /** Userinfo: the claims the access token's scopes allow. */
  async userinfo(accessToken: string | undefined): Promise<UserClaims> {
    if (!accessToken) throw new OAuthError('invalid_token', 'An access token is required', 401, undefined, { 'WWW-Authenticate': 'Bearer' });
    const live = await this.live(accessToken);
    if (live?.kind !== 'access') throw new OAuthError('invalid_token', 'The access token is invalid, expired or revoked', 401, undefined, INVALID_TOKEN);
    this.lastActive.record(live.service_session_id, this.clock());
    return claimsFor(userOf(live), live.scopes, this.issuer);
  }

  /** RFC 7662: only the client a token was issued to learns anything about it. */
  async introspect(client: ApiServiceRow, token: string | undefined): Promise<Introspection> {
    // Required (RFC 7662 §2.1): a client that forgot it is told so, not that some token is inactive.
    if (!token) throw tokenMissing();
    const live = await this.live(token);
    if (!live || live.service_id !== client.id) return { active: false };
    return {
      active: true,
      sub: live.user_id,
      client_id: client.client_id,
      scope: live.scopes.join(' '),
      exp: Math.floor(live.expires_at / 1000),
      iat: Math.floor(live.created_at / 1000),
      token_type: live.kind === 'access' ? 'Bearer' : 'refresh_token',
    };
  }

  /** RFC 7009: revoking a refresh token ends its whole session; an access token dies alone. */
  async revoke(client: ApiServiceRow, token: string | undefined): Promise<void> {
    if (!token) throw tokenMissing();
    const row = await this.serviceSessions.findTokenInContext(token);
    if (!row || row.service_id !== client.id) return;
    if (row.kind === 'refresh') await this.serviceSessions.revokeSession(row.service_session_id, this.clock());
    else await this.serviceSessions.revokeToken(row.token_key);
  }
}
