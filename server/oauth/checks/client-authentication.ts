import type { ApiServiceRow } from '../../api-services/api-services-repository';
import { clientSecretMatches } from '../../api-services/client-secrets';
import { OAuthError } from '../oauth-error';

/** `secret` is null for a client that sent only its client_id (method none: a public client). */
export type ClientCredentials = { clientId: string; secret: string | null; method: 'client_secret_basic' | 'client_secret_post' | 'none' };

const BASIC_CHALLENGE = { 'WWW-Authenticate': 'Basic realm="home-guard", charset="UTF-8"' };

/** Why a disabled service's right credentials are refused. */
export const SERVICE_DISABLED = 'This service is disabled';

const malformedCredentials = () => new OAuthError('invalid_client', 'Malformed client credentials', 401, undefined, BASIC_CHALLENGE);
const authenticationRequired = () => new OAuthError('invalid_client', 'Client authentication is required', 401, undefined, BASIC_CHALLENGE);

/**
 * The client's credentials from HTTP Basic (RFC 6749 §2.3.1, form-encoded parts; `header` is the
 * Authorization header as sent) or the form body, never both; or its client_id alone.
 */
export function readClientCredentials(header: string | undefined, body: { client_id?: string | undefined; client_secret?: string | undefined }): ClientCredentials {
  if (header && /^basic /i.test(header)) {
    if (body.client_secret !== undefined) throw new OAuthError('invalid_request', 'Use one client authentication method, not two');
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    let clientId: string;
    let secret: string;
    try {
      clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
      secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
    } catch {
      throw malformedCredentials();
    }
    // Every other input refuses NUL too: PostgreSQL cannot compare it with text.
    if (colon < 0 || !clientId || clientId.includes('\0') || secret.includes('\0')) throw malformedCredentials();
    if (body.client_id !== undefined && body.client_id !== clientId) throw new OAuthError('invalid_request', 'client_id does not match the credentials');
    return { clientId, secret, method: 'client_secret_basic' };
  }
  if (body.client_id && body.client_secret !== undefined) return { clientId: body.client_id, secret: body.client_secret, method: 'client_secret_post' };
  if (body.client_id) return { clientId: body.client_id, secret: null, method: 'none' };
  throw authenticationRequired();
}

/**
 * The credentials must name an enabled service: a confidential one whose secret matches (compared
 * in constant time), or a public one sent no secret. An empty secret counts as none, as some
 * services send one when theirs is left blank.
 */
export function authenticateClient(service: ApiServiceRow | undefined, credentials: ClientCredentials): ApiServiceRow {
  const challenge = credentials.method === 'client_secret_basic' ? BASIC_CHALLENGE : undefined;
  if (service?.public_client === 1) {
    if (credentials.secret) throw new OAuthError('invalid_client', 'This is a public client: it has no secret to send', 401, undefined, challenge);
  } else if (credentials.secret === null) {
    throw authenticationRequired();
  } else if (!service || !clientSecretMatches(credentials.secret, service.client_secret_hash)) {
    throw new OAuthError('invalid_client', 'Client authentication failed', 401, undefined, challenge);
  }
  if (service.is_active !== 1) throw new OAuthError('invalid_client', SERVICE_DISABLED, 401, undefined, challenge);
  return service;
}
