import type { ApiServiceRow } from '../../api-services/api-services-repository';
import { OAuthError } from '../oauth-error';

const SUPPORTED = ['authorization_code', 'refresh_token'];

/** The grant must be one we offer and one the service is allowed to use. */
export function checkGrantType(service: ApiServiceRow, grantType: string | undefined): 'authorization_code' | 'refresh_token' {
  if (!grantType) throw new OAuthError('invalid_request', 'grant_type is missing');
  if (!SUPPORTED.includes(grantType)) throw new OAuthError('unsupported_grant_type', `grant_type ${grantType} is not supported`);
  const allowed = JSON.parse(service.grant_types) as string[];
  if (!allowed.includes(grantType)) throw new OAuthError('unauthorized_client', `This service may not use the ${grantType} grant`);
  return grantType as 'authorization_code' | 'refresh_token';
}
