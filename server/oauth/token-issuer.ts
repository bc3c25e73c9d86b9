import { createHash, randomUUID } from 'node:crypto';
import type { UserClaims } from '../../contract/oidc-endpoints';
import type { ApiServiceRow } from '../api-services/api-services-repository';
import type { UserRow } from '../accounts/users-repository';
import { pictureUrl } from '../avatars/avatars';
import { signJwt } from '../keys/sign-jwt';
import type { SigningAlg, SigningKeys } from '../keys/signing-keys';
import { newSplitToken } from '../sessions/tokens';
import { storedList } from '../db/stored-list';

export type IssuedTokens = {
  access: string;
  /** Never after the session's end: a service is not told a token lasts longer than the sign-in behind it. */
  accessExpiresAt: number;
  refresh: string | undefined;
  rows: Array<{ token_key: string; verifier_hash: string; kind: 'access' | 'refresh'; scope: string; service_session_id: string; created_at: number; expires_at: number; used_at: null }>;
};

/** What a service may learn about a user. */
export type ClaimsUser = Pick<UserRow, 'id' | 'email' | 'email_verified' | 'full_name' | 'username' | 'profile_picture' | 'groups'>;

/** Claims a service may read about a user, by scope (OIDC Core §5.4). */
export function claimsFor(user: ClaimsUser, scopes: string[], issuer: string): UserClaims {
  const claims: UserClaims = { sub: user.id };
  if (scopes.includes('email')) Object.assign(claims, { email: user.email, email_verified: user.email_verified === 1 });
  // No `nickname`: Gitea's client reads it before `preferred_username` for the account's name.
  if (scopes.includes('profile')) Object.assign(claims, { name: user.full_name, preferred_username: user.username, picture: pictureUrl(user.profile_picture, issuer) });
  if (scopes.includes('groups')) claims.groups = storedList(user.groups);
  return claims;
}

/** at_hash: the left half of the access token's SHA-256, base64url (OIDC Core §3.1.3.6). */
export const atHash = (accessToken: string) => createHash('sha256').update(accessToken, 'ascii').digest().subarray(0, 16).toString('base64url');

/** Issues what a service receives: opaque access and refresh tokens (their secrets kept hashed) and a signed ID token. */
export class TokenIssuer {
  constructor(
    private readonly keys: SigningKeys,
    private readonly issuer: string,
    readonly accessTokenTtlSeconds: number,
    private readonly clock: () => number,
  ) {}

  /**
   * `sessionExpiresAt`: the service session's end, which is the refresh token's.
   * `refreshScopes`: what the refresh token carries, the whole grant even when the access token has fewer (RFC 6749 §6).
   */
  opaqueTokens(sessionId: string, scopes: string[], withRefresh: boolean, sessionExpiresAt: number, refreshScopes = scopes): IssuedTokens {
    const now = this.clock();
    const scope = scopes.join(' ');
    const access = newSplitToken(now);
    const accessExpiresAt = Math.min(now + this.accessTokenTtlSeconds * 1000, sessionExpiresAt);
    const refresh = withRefresh ? newSplitToken(now) : undefined;
    const rows: IssuedTokens['rows'] = [{ token_key: access.key, verifier_hash: access.verifierHash, kind: 'access', scope, service_session_id: sessionId, created_at: now, expires_at: accessExpiresAt, used_at: null }];
    if (refresh) rows.push({ token_key: refresh.key, verifier_hash: refresh.verifierHash, kind: 'refresh', scope: refreshScopes.join(' '), service_session_id: sessionId, created_at: now, expires_at: sessionExpiresAt, used_at: null });
    return { access: access.token, accessExpiresAt, refresh: refresh?.token, rows };
  }

  /** `expiresAt`: the access token's, so the ID token is not accepted past the session's end either. */
  async idToken(input: { service: ApiServiceRow; user: ClaimsUser; sessionId: string; authTime: number; amr: string; nonce: string | null; accessToken: string; expiresAt: number; scopes: string[] }): Promise<string> {
    const alg = (input.service.id_token_signed_response_alg === 'ES256' ? 'ES256' : 'RS256') satisfies SigningAlg;
    const { kid, key } = await this.keys.signingKey(alg);
    const now = Math.floor(this.clock() / 1000);
    return signJwt(alg, key, { kid, typ: 'JWT' }, {
      ...claimsFor(input.user, input.scopes, this.issuer),
      auth_time: Math.floor(input.authTime / 1000),
      amr: input.amr.split(' '),
      ...(input.nonce ? { nonce: input.nonce } : {}),
      at_hash: atHash(input.accessToken),
      azp: input.service.client_id,
      sid: input.sessionId,
      iss: this.issuer,
      sub: input.user.id,
      aud: input.service.client_id,
      jti: randomUUID(),
      iat: now,
      exp: Math.floor(input.expiresAt / 1000),
    });
  }
}
