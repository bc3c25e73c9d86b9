import type { ApiServiceRow } from '../../api-services/api-services-repository';
import { OAuthError } from '../oauth-error';
import { storedList } from '../../db/stored-list';

/**
 * The redirect_uri must be one of the registered ones, byte for byte (trailing slash, case and
 * query included), but for a loopback address's port when the service is a native app, a public
 * client (see loopbackAnyPort; RFC 9700 §4.1.3 leaves the port open to those only). It may be
 * left out only when exactly one is registered.
 */
export function checkRedirectUri(service: ApiServiceRow, redirectUri: string | undefined): string {
  const registered = storedList(service.redirect_uris);
  if (redirectUri === undefined) {
    if (registered.length === 1) return registered[0]!;
    throw new OAuthError('invalid_request', 'redirect_uri is missing');
  }
  if (!isRegistered(service, redirectUri)) throw new OAuthError('invalid_request', 'redirect_uri is not registered for this service');
  return redirectUri;
}

/** Whether the service has this redirect URI, by the rules above. */
export function isRegistered(service: Pick<ApiServiceRow, 'redirect_uris' | 'public_client'>, redirectUri: string): boolean {
  const registered = storedList(service.redirect_uris);
  const loopback = service.public_client === 1 ? loopbackAnyPort(redirectUri) : undefined;
  return registered.some((uri) => uri === redirectUri || (loopback !== undefined && loopbackAnyPort(uri) === loopback));
}

// http, the loopback IP literal, an optional port, then the rest as sent.
const LOOPBACK = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?(\/.*)?$/;
const HIGHEST_PORT = 65_535;

/**
 * A command-line tool or desktop app listens for its answer on whatever port is free: the port
 * of a loopback redirect URI is left to it (RFC 8252 §7.3), everything else compared as sent.
 * Only the IP literals: "localhost" is a name a lookup could send elsewhere (§8.3). Undefined for
 * any other URI.
 */
function loopbackAnyPort(uri: string): string | undefined {
  const match = LOOPBACK.exec(uri);
  // A port past the last one is no URL at all: it would fail where the answer is redirected.
  if (!match || Number(match[2] ?? 0) > HIGHEST_PORT) return undefined;
  return `http://${match[1]}${match[3] ?? ''}`;
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
