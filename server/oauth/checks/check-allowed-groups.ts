import type { UserRow } from '../../accounts/users-repository';
import type { ApiServiceRow } from '../../api-services/api-services-repository';
import { OAuthError } from '../oauth-error';
import { storedList } from '../../db/stored-list';

/** A service limited to some groups lets in only people in one of them (none listed: everyone). */
export function letsIn(service: Pick<ApiServiceRow, 'allowed_groups'>, user: Pick<UserRow, 'groups'>): boolean {
  const allowed = storedList(service.allowed_groups);
  const groups = storedList(user.groups);
  return allowed.length === 0 || allowed.some((group) => groups.includes(group));
}

export function checkAllowedGroups(service: ApiServiceRow, user: Pick<UserRow, 'groups'>): void {
  if (!letsIn(service, user)) {
    throw new OAuthError('access_denied', `${service.name} is open only to some groups, and your account is in none of them; an administrator can add you`, 403);
  }
}
