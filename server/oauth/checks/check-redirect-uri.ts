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

/**
 * At the token endpoint: when the authorization request named a redirect_uri, the token request
 * repeats it byte for byte (RFC 6749 §4.1.3); when it did not, one sent must be the registered one.
 */
export function checkRedirectUriRepeated(code: { redirect_uri: string; redirect_uri_sent: number }, redirectUri: string | undefined): void {
  if (redirectUri === undefined) {
    if (code.redirect_uri_sent === 0) return;
    throw new OAuthError('invalid_grant', 'redirect_uri is missing: the authorization request named one');
  }
  if (redirectUri !== code.redirect_uri) throw new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request');
}
