import { OAuthError } from '../oauth-error';

/** Request objects (OIDC Core §6) are not supported: a request carrying one is refused, never read without it. */
export function checkNoRequestObject(request: string | undefined, requestUri: string | undefined): void {
  if (request !== undefined) throw new OAuthError('request_not_supported', 'The request parameter is not supported');
  if (requestUri !== undefined) throw new OAuthError('request_uri_not_supported', 'The request_uri parameter is not supported');
}
