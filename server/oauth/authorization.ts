import { randomBytes } from 'node:crypto';
import type { AuthorizationCheck, AuthorizationParams, AuthorizationQuery, CodeRequest } from '../../contract/oauth';
import { AUTHORIZATION_PARAMS, redirectWith } from '../../contract/oauth';
import type { UsersRepository } from '../accounts/users-repository';
import type { ApiServicesRepository } from '../api-services/api-services-repository';
import { AppError } from '../errors';
import type { UserSessionsRepository } from '../sessions/user-sessions-repository';
import type { Authenticated } from '../sessions/user-sessions-service';
import { hashToken } from '../sessions/tokens';
import type { AuthenticatorApps } from '../two-step/authenticator-apps';
import { omittingEmpty, validateAuthorizationRequest, type ValidAuthorizationRequest } from './authorization-request';
import { checkAllowedGroups } from './checks/check-allowed-groups';
import { identityAssured } from './checks/check-client-identity';
import { takesSignIn, twoStepRefusal } from './checks/check-two-step';
import type { IdTokenHints } from './id-token-hints';
import { OAuthError } from './oauth-error';
import type { ServiceSessionsRepository } from './service-sessions-repository';

export const CODE_LIFETIME_SECONDS = 60;
/**
 * prompt=login: the web app asks for the password again, and a code is issued only for a sign-in
 * this recent, so a saved account picked instead (on a borrowed device, say) does not pass for one.
 * Room to type the password and read the consent screen.
 */
export const PROMPT_LOGIN_WINDOW_SECONDS = 600;

/** The front of the authorization code flow: checking a request, and issuing its code. */
export class Authorization {
  constructor(
    private readonly services: ApiServicesRepository,
    private readonly users: UsersRepository,
    private readonly userSessions: UserSessionsRepository,
    private readonly serviceSessions: ServiceSessionsRepository,
    private readonly hints: IdTokenHints,
    private readonly authenticatorApps: AuthenticatorApps,
    private readonly issuer: string,
    private readonly clock: () => number,
  ) {}

  /** What the consent screen needs to show a valid request; throws what it must show instead. */
  async check(query: AuthorizationQuery): Promise<AuthorizationCheck> {
    const params: AuthorizationParams = {};
    const repeated: string[] = [];
    for (const name of AUTHORIZATION_PARAMS) {
      // Sent without a value, a parameter is as if not sent (RFC 6749 §3.1), once or again.
      const values = [query[name]].flat().filter((value) => value !== '');
      if (values.length > 1) repeated.push(name);
      params[name] = values[0];
    }
    const valid = await validateAuthorizationRequest(params, this.services, this.issuer, repeated);
    const hinted = params.id_token_hint ? await this.hints.subjectOf(params.id_token_hint, valid.service.client_id) : null;
    return {
      service: { client_id: valid.service.client_id, name: valid.service.name, icon_url: valid.service.icon_url },
      scopes: valid.scopes,
      redirect_uri: valid.redirectUri,
      state: valid.state ?? null,
      issuer: this.issuer,
      prompt: valid.prompt,
      max_age: valid.maxAge,
      login_hint: params.login_hint ?? null,
      hinted_subject: hinted,
    };
  }

  /**
   * Issues a code for the signed-in user: random, single-use, 60 seconds, bound to the client,
   * redirect_uri, user, user session, scopes, nonce and PKCE challenge. Null when `if_approved`
   * finds no approval to go on.
   */
  async issueCode(sent: CodeRequest, auth: Authenticated, ip: string | undefined): Promise<{ code: string; redirect_to: string; serviceId: string } | null> {
    // The spec's minimum is {nonce, client_id}: what is left out takes the spec's defaults (§9).
    const params = { response_type: 'code', scope: 'openid', ...omittingEmpty(sent) };
    const valid = await validateAuthorizationRequest(params, this.services, this.issuer);
    const fail = (error: OAuthError) => error.redirectingTo(valid.redirectUri, valid.state, this.issuer);
    const silent = valid.prompt.includes('none');
    const user = await this.users.findById(auth.userId);
    if (!user || user.verified !== 1) {
      // The verification steps are pages prompt=none may not show (OIDC Core §3.1.2.6).
      if (silent) throw fail(new OAuthError('interaction_required', 'The account must finish its verification first'));
      throw new OAuthError('access_denied', 'Verify your account before signing in to services', 403);
    }
    // The hint names whom the service expects (OIDC Core §3.1.2.1): silently, no one else is
    // signed in instead; nor without the person seeing, on the screen, that it asked for another.
    const someoneElseHinted = params.id_token_hint !== undefined && (await this.hints.subjectOf(params.id_token_hint, valid.service.client_id)) !== user.id;
    if (silent && someoneElseHinted) throw fail(new OAuthError('login_required', 'The person the id_token_hint names is not the one signed in'));
    try {
      checkAllowedGroups(valid.service, user);
    } catch (refused) {
      // The person is told on the consent screen; a service asking silently is told instead.
      throw silent ? fail(refused as OAuthError) : refused;
    }
    // Signed out since the access token was checked: a sign-in that has ended gets no code (and
    // none is stored should it end before the code is: insertCode checks again).
    const session = await this.userSessions.findById(auth.sessionId);
    if (!session || session.revoked_at !== null) throw AppError.invalidToken();
    const { issued_at: authTime, amr } = session;
    if (!takesSignIn(valid.service, amr)) {
      if (silent) throw fail(new OAuthError('login_required', 'The service takes only two-step sign-ins'));
      throw twoStepRefusal(valid.service, (await this.authenticatorApps.status(user.id)).enabled);
    }
    await this.checkFreshness(valid, authTime, fail);
    const consented = await this.serviceSessions.consentedScopes(user.id, valid.service.id);
    const approvedBefore = identityAssured(valid.service, valid.redirectUri) && valid.scopes.every((scope) => consented.includes(scope));
    if (silent) {
      if (!approvedBefore) throw fail(new OAuthError('consent_required', 'The user has not approved this service yet'));
    } else if (params.if_approved) {
      if (!approvedBefore || valid.prompt.includes('consent') || someoneElseHinted) return null; // the consent screen asks
    }

    const now = this.clock();
    const code = randomBytes(32).toString('base64url');
    // Built first: an address it cannot be sent to leaves no code and no approval behind.
    const redirectTo = redirectWith(valid.redirectUri, { code, state: valid.state, iss: this.issuer });
    const stored = await this.serviceSessions.insertCode({
      code_hash: hashToken(code),
      service_id: valid.service.id,
      user_id: user.id,
      user_session_id: auth.sessionId,
      redirect_uri: valid.redirectUri,
      redirect_uri_sent: valid.redirectUriSent ? 1 : 0,
      scope: valid.scopes.join(' '),
      nonce: valid.nonce ?? null,
      code_challenge: valid.codeChallenge,
      code_challenge_method: valid.codeChallengeMethod,
      auth_time: authTime,
      amr,
      ip_address: ip ?? null,
      created_at: now,
      expires_at: now + CODE_LIFETIME_SECONDS * 1000,
      used_at: null,
      service_session_id: null,
    });
    if (!stored) throw AppError.invalidToken();
    // A request for fewer scopes does not narrow what the person approved. An approval given to a
    // client that could not prove who it is would never spare the screen, nor should it stand for a
    // later request that can: it is not kept (nor listed as standing on Personal Info).
    if (identityAssured(valid.service, valid.redirectUri)) {
      await this.serviceSessions.recordConsent(user.id, valid.service.id, [...new Set([...consented, ...valid.scopes])], now);
    }
    return { code, redirect_to: redirectTo, serviceId: valid.service.id };
  }

  /**
   * max_age or prompt=login: a sign-in older than they allow needs a fresh one (with prompt=none,
   * the service is told). max_age=0 is prompt=login (OIDC Core §3.1.2.1), which prompt=none cannot have.
   */
  private async checkFreshness(valid: ValidAuthorizationRequest, authTime: number, fail: (error: OAuthError) => OAuthError): Promise<void> {
    const age = this.clock() - authTime;
    const maxAgeZero = valid.maxAge === 0 && !valid.prompt.includes('none');
    if ((valid.prompt.includes('login') || maxAgeZero) && age > PROMPT_LOGIN_WINDOW_SECONDS * 1000) throw new OAuthError('login_required', 'The service asks for a fresh sign-in');
    if (valid.maxAge === null || maxAgeZero || age <= valid.maxAge * 1000) return;
    const error = new OAuthError('login_required', 'The sign-in is older than max_age allows');
    throw valid.prompt.includes('none') ? fail(error) : error;
  }
}
