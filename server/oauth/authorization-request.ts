import type { AuthorizationParams } from '../../contract/oauth';
import type { ApiServiceRow, ApiServicesRepository } from '../api-services/api-services-repository';
import { checkClientUsable } from './checks/check-client';
import { checkCodeGrantAllowed } from './checks/check-grant-type';
import { checkPkceChallenge } from './checks/check-pkce';
import { checkMaxAge, checkPrompt } from './checks/check-prompt';
import { checkRedirectUri } from './checks/check-redirect-uri';
import { checkNoRequestObject } from './checks/check-request-object';
import { checkResponseType } from './checks/check-response-type';
import { checkScope } from './checks/check-scope';
import { OAuthError, repeatedParameters } from './oauth-error';

export type ValidAuthorizationRequest = {
  service: ApiServiceRow;
  redirectUri: string;
  /** Whether the request named its redirect_uri (the token request must then repeat it). */
  redirectUriSent: boolean;
  scopes: string[];
  state: string | undefined;
  nonce: string | undefined;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  prompt: string[];
  maxAge: number | null;
};

/** A parameter sent without a value is treated as if it were not sent (RFC 6749 §3.1). */
export function omittingEmpty<T extends Record<string, unknown>>(params: T): T {
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== '' && value !== undefined)) as T;
}

/**
 * The authorization request, read top to bottom as its list of checks. Until the client and
 * its redirect_uri are known good, an error is shown by us (never redirected); after that it
 * goes back to the service.
 */
export async function validateAuthorizationRequest(params: AuthorizationParams, services: ApiServicesRepository, issuer: string, repeated: readonly string[] = []): Promise<ValidAuthorizationRequest> {
  const refuseRepeated = (names: readonly string[]) => {
    if (names.length > 0) throw repeatedParameters(names);
  };
  // A repeated client_id or redirect_uri leaves no address known good to send the error to.
  refuseRepeated(repeated.filter((name) => name === 'client_id' || name === 'redirect_uri'));
  const service = checkClientUsable(params.client_id ? await services.findByClientId(params.client_id) : undefined, params.client_id);
  const redirectUri = checkRedirectUri(service, params.redirect_uri);
  try {
    refuseRepeated(repeated);
    checkNoRequestObject(params.request, params.request_uri);
    checkResponseType(params.response_type, params.response_mode);
    checkCodeGrantAllowed(service);
    const scopes = checkScope(service, params.scope);
    const pkce = checkPkceChallenge(params.code_challenge, params.code_challenge_method, service.public_client === 1);
    const prompt = checkPrompt(params.prompt);
    const maxAge = checkMaxAge(params.max_age);
    return { service, redirectUri, redirectUriSent: params.redirect_uri !== undefined, scopes, state: params.state, nonce: params.nonce, codeChallenge: pkce.challenge, codeChallengeMethod: pkce.method, prompt, maxAge };
  } catch (error) {
    if (error instanceof OAuthError) throw error.redirectingTo(redirectUri, params.state, issuer);
    throw error;
  }
}
