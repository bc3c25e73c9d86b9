import type { ApiServiceRow } from '../../api-services/api-services-repository';
import { OAuthError } from '../oauth-error';

/**
 * The redirect_uri must be one of the registered ones, byte for byte (trailing slash, case and
 * query included). It may be left out only when exactly one is registered.
 */
export function checkRedirectUri(service: ApiServiceRow, redirectUri: string | undefined): string {
  const registered = JSON.parse(service.redirect_uris) as string[];
  if (redirectUri === undefined) {
    if (registered.length === 1) return registered[0]!;
    throw new OAuthError('invalid_request', 'redirect_uri is missing');
  }
  if (!registered.includes(redirectUri)) throw new OAuthError('invalid_request', 'redirect_uri is not registered for this service');
  return redirectUri;
}
