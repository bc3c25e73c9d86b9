import type { ApiServiceRow } from '../../api-services/api-services-repository';
import { OAuthError } from '../oauth-error';
import { SERVICE_DISABLED } from './client-authentication';

/**
 * The service named by client_id must exist and be enabled. Shown to the person (RFC 6749
 * §4.1.2.1), with 400: a 401 at the code request reads as the app's own token refused, which the
 * worker then refreshed, and sent the request again.
 */
export function checkClientUsable(service: ApiServiceRow | undefined, clientId: string | undefined): ApiServiceRow {
  if (!clientId) throw new OAuthError('invalid_request', 'client_id is missing');
  if (!service) throw new OAuthError('invalid_client', 'Unknown client', 400);
  if (service.is_active !== 1) throw new OAuthError('invalid_client', SERVICE_DISABLED, 400);
  return service;
}
