import type { ApiServiceRow } from '../../api-services/api-services-repository';
import { OAuthError } from '../oauth-error';

/** The service named by client_id must exist and be enabled. */
export function checkClientUsable(service: ApiServiceRow | undefined, clientId: string | undefined): ApiServiceRow {
  if (!clientId) throw new OAuthError('invalid_request', 'client_id is missing');
  if (!service) throw new OAuthError('invalid_client', 'Unknown client', 401);
  if (service.is_active !== 1) throw new OAuthError('invalid_client', 'This service is disabled', 401);
  return service;
}
