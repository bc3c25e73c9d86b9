import type { ApiServiceRow } from '../../api-services/api-services-repository';
import { OAuthError } from '../oauth-error';
import { storedList } from '../../db/stored-list';

/**
 * The requested scopes: openid is required, and each must be allowed for the service. A scope
 * the service may not have is refused, never silently dropped.
 */
export function checkScope(service: ApiServiceRow, scope: string | undefined): string[] {
  const requested = [...new Set((scope ?? '').split(' ').filter(Boolean))];
  if (!requested.includes('openid')) throw new OAuthError('invalid_scope', 'The openid scope is required');
  const allowed = storedList(service.scopes);
  const refused = requested.filter((s) => !allowed.includes(s));
  if (refused.length > 0) throw new OAuthError('invalid_scope', `Scope not allowed for this service: ${refused.join(' ')}`);
  return requested;
}

/**
 * A refresh may keep or narrow the granted scopes, never widen them. openid stays: a token
 * without it would be one userinfo must refuse (OIDC Core §5.3), though the grant is OpenID's.
 */
export function checkScopeWithin(granted: string[], scope: string | undefined): string[] {
  if (!scope) return granted;
  const requested = [...new Set(scope.split(' ').filter(Boolean))];
  const extra = requested.filter((s) => !granted.includes(s));
  if (extra.length > 0) throw new OAuthError('invalid_scope', `Scope was not granted: ${extra.join(' ')}`);
  return granted.includes('openid') && !requested.includes('openid') ? ['openid', ...requested] : requested;
}
