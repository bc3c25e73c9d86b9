import type { ApiServiceRow } from '../../api-services/api-services-repository';
import { OAuthError } from '../oauth-error';
import { storedList } from '../../db/stored-list';

const SUPPORTED = ['authorization_code', 'refresh_token'];

/** The grant must be one we offer and one the service is allowed to use. */
export function checkGrantType(service: ApiServiceRow, grantType: string | undefined): 'authorization_code' | 'refresh_token' {
  if (!grantType) throw new OAuthError('invalid_request', 'grant_type is missing');
  if (!SUPPORTED.includes(grantType)) throw new OAuthError('unsupported_grant_type', `grant_type ${grantType} is not supported`);
  const allowed = storedList(service.grant_types);
  if (!allowed.includes(grantType)) throw new OAuthError('unauthorized_client', `This service may not use the ${grantType} grant`);
  return grantType as 'authorization_code' | 'refresh_token';
}

/**
 * A code is asked for only by a service that may exchange it: told at the authorization request
 * (RFC 6749 §4.1.2.1), before the person approves anything, not at the token endpoint after.
 */
export function checkCodeGrantAllowed(service: ApiServiceRow): void {
  if (!storedList(service.grant_types).includes('authorization_code')) {
    throw new OAuthError('unauthorized_client', 'This service may not use the authorization_code grant');
  }
}
