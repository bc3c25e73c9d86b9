import { OAuthError } from '../oauth-error';

/** Only the authorization code flow is offered. */
export function checkResponseType(responseType: string | undefined): void {
  if (!responseType) throw new OAuthError('invalid_request', 'response_type is missing');
  if (responseType !== 'code') throw new OAuthError('unsupported_response_type', 'Only response_type=code is supported');
}
