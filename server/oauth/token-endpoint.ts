import type { ReusedToken } from '../../contract/audit';
import type { TokenRequest, TokenResponse } from '../../contract/oidc-endpoints';
import type { AuditLog } from '../audit/audit-log';
import type { ClientInfo, SessionPolicy } from '../sessions/user-sessions-service';
import type { ApiServiceRow } from '../api-services/api-services-repository';
import { timeOrderedUuid } from '../db/time-ordered-uuid';
import { hashToken } from '../sessions/tokens';
import { letsIn } from './checks/check-allowed-groups';
import { checkGrantType } from './checks/check-grant-type';
import { checkPkceVerifier } from './checks/check-pkce';
import { checkRedirectUriRepeated, isRegistered } from './checks/check-redirect-uri';
import { checkScopeWithin } from './checks/check-scope';
import { takesSignIn } from './checks/check-two-step';
import { OAuthError } from './oauth-error';
import { userOf, type CodeRow, type ServiceSessionsRepository } from './service-sessions-repository';
import type { IssuedTokens, TokenIssuer } from './token-issuer';
import { storedList } from '../db/stored-list';

const allowsRefresh = (service: ApiServiceRow) => storedList(service.grant_types).includes('refresh_token');

/** What was granted, less any scope the service has been given up since (openid is always its). */
const stillOffered = (service: ApiServiceRow, granted: string[]): string[] => {
  const offered = storedList(service.scopes);
  return granted.filter((scope) => scope === 'openid' || offered.includes(scope));
};

/** The grants' refusals said in more than one place. */
const GRANT_REFUSALS = {
  signInEnded: () => new OAuthError('invalid_grant', 'The sign-in behind this code has ended'),
  notLetIn: () => new OAuthError('invalid_grant', 'The service no longer lets this sign-in in'),
  refreshTokenUsed: () => new OAuthError('invalid_grant', 'The refresh token has already been used'),
};

/** Whether the service's rules as they are now (its groups, its two-step) let this account's sign-in in. */
const stillLetsIn = (service: ApiServiceRow, user: { groups: string }, amr: string) => letsIn(service, user) && takesSignIn(service, amr);

/** A service session ends SESSION_MAX_AGE after the sign-in it came from, however much it is refreshed. */
export const serviceSignInEnd = (authTime: number, sessionMaxAgeSeconds: number): number => authTime + sessionMaxAgeSeconds * 1000;

/** The token endpoint's grants, for an already authenticated client. */
export class TokenEndpoint {
  constructor(
    private readonly serviceSessions: ServiceSessionsRepository,
    private readonly issuer: TokenIssuer,
    private readonly policy: Pick<SessionPolicy, 'refreshTokenTtlSeconds' | 'sessionMaxAgeSeconds'>,
    private readonly audit: AuditLog,
    private readonly clock: () => number,
  ) {}

  /** `client`: where the request came from, for the audit log when it presents a used code or refresh token. */
  async grant(service: ApiServiceRow, request: TokenRequest, client?: ClientInfo): Promise<TokenResponse> {
    const grantType = checkGrantType(service, request.grant_type);
    return grantType === 'authorization_code' ? this.exchangeCode(service, request, client) : this.refresh(service, request, client);
  }

  private async exchangeCode(service: ApiServiceRow, request: TokenRequest, client: ClientInfo | undefined): Promise<TokenResponse> {
    if (!request.code) throw new OAuthError('invalid_request', 'code is missing');
    const now = this.clock();
    const codeHash = hashToken(request.code);
    const code = await this.serviceSessions.findCodeInContext(codeHash);
    if (!code || code.service_id !== service.id) throw new OAuthError('invalid_grant', 'The code is invalid');
    if (code.used_at !== null) return this.replayed(code, now, client);
    const user = userOf(code);
    try {
      if (code.expires_at <= now) throw new OAuthError('invalid_grant', 'The code has expired');
      checkRedirectUriRepeated(code, request.redirect_uri);
      checkPkceVerifier(code.code_challenge, request.code_verifier);
      // A sign-in ended early (signed out, a new password, the account disabled) is refused by the
      // write that uses the code, which checks it where no revoke can slip in after the check.
      if (this.signInEnd(code.auth_time) <= now) throw GRANT_REFUSALS.signInEnded();
      // The service's rules as they are now, as on a refresh: a redirect URI removed, a group
      // dropped or two-step required in the minute since the code was given do not let it in.
      if (!isRegistered(service, code.redirect_uri)) throw new OAuthError('invalid_grant', 'redirect_uri is no longer registered for this service');
      if (!stillLetsIn(service, user, code.amr)) throw GRANT_REFUSALS.notLetIn();
    } catch (error) {
      // A code is good for one try: a wrong verifier cannot be followed by a guess.
      await this.serviceSessions.useCode(codeHash, now);
      throw error;
    }

    const sessionId = timeOrderedUuid(now);
    const withRefresh = allowsRefresh(service);
    // offline_access asks for a refresh token: without one, the tokens do not claim it (RFC 6749 §5.1).
    const scopes = stillOffered(service, code.scope.split(' ')).filter((scope) => withRefresh || scope !== 'offline_access');
    const expiresAt = Math.min(now + (withRefresh ? this.policy.refreshTokenTtlSeconds : this.issuer.accessTokenTtlSeconds) * 1000, this.signInEnd(code.auth_time));
    const tokens = this.issuer.opaqueTokens(sessionId, scopes, withRefresh, expiresAt);
    // Using the code and opening the session are one transaction: one commit per exchange.
    const opened = await this.serviceSessions.openSessionWithCode(
      { id: sessionId, service_id: service.id, user_id: user.id, user_session_id: code.user_session_id, scope: scopes.join(' '), ip_address: code.ip_address, auth_time: code.auth_time, amr: code.amr, issued_at: now, expires_at: expiresAt, last_active: now, revoked_at: null },
      codeHash,
      tokens.rows,
    );
    if (!opened) return this.notOpened(codeHash, now, client);
    const idToken = await this.issuer.idToken({ service, user, sessionId, authTime: code.auth_time, amr: code.amr, nonce: code.nonce, accessToken: tokens.access, expiresAt: tokens.accessExpiresAt, scopes });
    return this.response(tokens, idToken, scopes, now);
  }

  /**
   * The code's session was not opened: another exchange of the code got there first (a replay),
   * or the sign-in behind it has ended (signed out, a new password, the account disabled, or
   * deleted with its codes since the code was read), and the code is used up all the same.
   */
  private async notOpened(codeHash: string, now: number, client: ClientInfo | undefined): Promise<never> {
    const code = await this.serviceSessions.findCode(codeHash);
    if (code && code.used_at !== null) return this.replayed(code, now, client);
    await this.serviceSessions.useCode(codeHash, now);
    throw GRANT_REFUSALS.signInEnded();
  }

  /** A replayed code, as it is now: whatever it issued is revoked (RFC 6749 §4.1.2). */
  private async replayed(code: Pick<CodeRow, 'service_session_id' | 'user_id' | 'service_id'>, now: number, client: ClientInfo | undefined): Promise<never> {
    // Recorded once, by the replay that ended the session: the next ones would fill the log.
    if (code.service_session_id && (await this.serviceSessions.revokeSession(code.service_session_id, now))) {
      await this.reused('code', code.user_id, code.service_id, client);
    }
    throw new OAuthError('invalid_grant', 'The code has already been used');
  }

  /** A code or refresh token presented again: someone has a copy, so the session it belonged to was ended. */
  private reused(what: ReusedToken, userId: string, serviceId: string, client: ClientInfo | undefined): Promise<void> {
    return this.audit.record({ kind: 'token-reused', userId, serviceId, detail: what }, { actorId: null, client });
  }

  private async refresh(service: ApiServiceRow, request: TokenRequest, client: ClientInfo | undefined): Promise<TokenResponse> {
    if (!request.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is missing');
    const now = this.clock();
    const token = await this.serviceSessions.findTokenInContext(request.refresh_token);
    if (!token || token.kind !== 'refresh' || token.service_id !== service.id) throw new OAuthError('invalid_grant', 'The refresh token is invalid');
    const sessionId = token.service_session_id;
    if (token.used_at !== null) {
      // Service refresh tokens rotate without grace: a second use means a copy exists.
      if (await this.serviceSessions.revokeSession(sessionId, now)) await this.reused('refresh-token', token.user_id, service.id, client);
      throw GRANT_REFUSALS.refreshTokenUsed();
    }
    // A refresh token ends with its session: each grant gives both the same end. The sign-in's end
    // is checked too, as a session opened before SESSION_MAX_AGE was lowered still has the old end.
    const ended = token.expires_at <= now || this.signInEnd(token.auth_time) <= now;
    if (token.session_revoked_at !== null || ended) throw new OAuthError('invalid_grant', 'The refresh token has expired or was revoked');
    const user = userOf(token);
    // Checked as well as the session: see TokenIntrospection.live.
    if (token.user_disabled_at !== null) throw new OAuthError('invalid_grant', 'The account is disabled');
    // The service's rules as they are now, not as they were at sign-in: an account taken out of its
    // groups, or a sign-in without the two-step it came to require, is let in no longer (RFC 9700 §4.14.2).
    if (!stillLetsIn(service, user, token.amr)) {
      await this.serviceSessions.revokeSession(sessionId, now);
      throw GRANT_REFUSALS.notLetIn();
    }

    // A narrower scope is for this access token only: the new refresh token keeps the grant (RFC 6749 §6),
    // less any scope the service has been given up since.
    const granted = stillOffered(service, token.scope.split(' '));
    const scopes = checkScopeWithin(granted, request.scope);
    const expiresAt = Math.min(now + this.policy.refreshTokenTtlSeconds * 1000, this.signInEnd(token.auth_time));
    const tokens = this.issuer.opaqueTokens(sessionId, scopes, true, expiresAt, granted);
    if (!(await this.serviceSessions.rotate(token.token_key, sessionId, now, expiresAt, tokens.rows))) {
      if (await this.serviceSessions.revokeSession(sessionId, now)) await this.reused('refresh-token', token.user_id, service.id, client);
      throw GRANT_REFUSALS.refreshTokenUsed();
    }
    const idToken = await this.issuer.idToken({ service, user, sessionId, authTime: token.auth_time, amr: token.amr, nonce: null, accessToken: tokens.access, expiresAt: tokens.accessExpiresAt, scopes });
    return this.response(tokens, idToken, scopes, now);
  }

  private signInEnd(authTime: number): number {
    return serviceSignInEnd(authTime, this.policy.sessionMaxAgeSeconds);
  }

  private response(tokens: IssuedTokens, idToken: string, scopes: string[], now: number): TokenResponse {
    return {
      access_token: tokens.access,
      token_type: 'Bearer',
      expires_in: Math.floor((tokens.accessExpiresAt - now) / 1000),
      id_token: idToken,
      ...(tokens.refresh ? { refresh_token: tokens.refresh } : {}),
      scope: scopes.join(' '),
    };
  }
}
