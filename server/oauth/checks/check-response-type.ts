import { OAuthError } from '../oauth-error';

/**
 * Only the authorization code flow is offered, its answer in the query (discovery's
 * response_modes_supported). A service asking for form_post or a fragment would otherwise be sent
 * the code where it does not look for it.
 */
export function checkResponseType(responseType: string | undefined, responseMode: string | undefined): void {
  if (!responseType) throw new OAuthError('invalid_request', 'response_type is missing');
  if (responseType !== 'code') throw new OAuthError('unsupported_response_type', 'Only response_type=code is supported');
  if (responseMode !== undefined && responseMode !== 'query') throw new OAuthError('invalid_request', 'Only response_mode=query is supported');
}
