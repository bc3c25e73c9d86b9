import { AUDIT_EVENT_GROUPS, readServiceDetail, SERVICE_APPROVAL_ONLY, WITH_RECOVERY_CODE, type AuditEvent } from '../../contract/audit';

const ADMIN_SERVICE_EVENTS = new Set<AuditEvent['kind']>(AUDIT_EVENT_GROUPS.services);
const REFUSALS: Record<string, string> = { 'wrong-password': 'wrong password', 'wrong-code': 'wrong two-step code', disabled: 'account disabled' };
const PASSWORD_CHANGES: Record<string, string> = {
  changed: 'Password changed',
  'reset-by-link': 'Password reset with a mailed link',
  'set-by-administrator': 'Password set by an administrator',
};
const ACCOUNT_FIELDS: Record<string, string> = {
  full_name: 'name',
  email: 'email',
  username: 'username',
  phone_number: 'phone',
  'made-admin': 'made an administrator',
  'admin-removed': 'no longer an administrator',
  // As events before the role's direction was recorded name it.
  is_admin: 'role',
  groups: 'groups',
};

const SERVICE_FIELDS: Record<string, string> = {
  name: 'name',
  description: 'description',
  redirect_uris: 'redirect URIs',
  post_logout_redirect_uris: 'sign-out redirect URIs',
  scopes: 'scopes',
  grant_types: 'grant types',
  icon_url: 'icon',
  launch_url: 'home page',
  id_token_signed_response_alg: 'ID token algorithm',
  allowed_groups: 'allowed groups',
  'two-step-required': 'two-step sign-in required',
  'two-step-not-required': 'two-step sign-in no longer required',
  'made-public': 'made a public client',
  'made-confidential': 'made a confidential client',
};

/** One field of an account-changed event: "email:old:new" names both addresses (no email holds a colon). */
function changedField(field: string): string {
  const [name, from, to] = field.split(':');
  if (name === 'email' && from && to) return `email (${from} → ${to})`;
  return ACCOUNT_FIELDS[field] ?? field;
}

/** What an audit event says happened, in a line: "Signed in to Grafana", "Sign-in refused: wrong password". */
export function describeAuditEvent(event: Pick<AuditEvent, 'kind' | 'detail' | 'service'>): string {
  const detail = event.detail ?? '';
  // The service as it is named now; for the admin's changes to one, as it was named then when it is
  // gone. Other events' details say something else ("approval-only"), never the service's name.
  const service = event.service?.name ?? (ADMIN_SERVICE_EVENTS.has(event.kind) ? readServiceDetail(detail).name : '');
  switch (event.kind) {
    case 'signed-in': {
      const methods = detail.split(' ');
      if (methods.includes(WITH_RECOVERY_CODE)) return 'Signed in with a recovery code';
      return methods.includes('mfa') ? 'Signed in with two steps' : 'Signed in';
    }
    case 'signed-out':
      return 'Signed out';
    case 'sign-in-refused':
      return `Sign-in refused: ${REFUSALS[detail] ?? 'refused'}`;
    case 'password-changed':
      return PASSWORD_CHANGES[detail] ?? 'Password changed';
    case 'password-reset-requested':
      return 'Password reset link mailed';
    case 'two-step-on':
      return 'Two-step sign-in turned on';
    case 'two-step-off':
      return 'Two-step sign-in turned off';
    case 'recovery-codes-renewed':
      return 'New recovery codes made';
    case 'service-signed-in':
      return `Signed in to ${service || 'a service'}`;
    case 'account-created':
      if (detail === 'registered') return 'Registered';
      return detail === 'administrator' ? 'Account created, as an administrator' : 'Account created';
    case 'account-changed':
      return `Details changed: ${detail.split(', ').map(changedField).join(', ')}`;
    case 'account-disabled':
      return 'Account disabled';
    case 'account-enabled':
      return 'Account enabled';
    case 'account-deleted':
      return `Account deleted: ${detail}`;
    case 'user-session-revoked': {
      if (/^everywhere:\d+$/.test(detail)) return 'Signed out of every device and service';
      const others = /^other-devices:(\d+)$/.exec(detail);
      if (!others) return 'A device signed out';
      return others[1] === '1' ? '1 other device signed out' : `${others[1]} other devices signed out`;
    }
    case 'token-reused': {
      const what = detail === 'code' ? 'Code' : 'Refresh token';
      if (!service) return `${what} used twice: the device was signed out`;
      return `${what} used twice at ${service}: its session was ended`;
    }
    case 'service-session-revoked':
      if (detail === SERVICE_APPROVAL_ONLY) return `Approval withdrawn from ${service || 'a service'}`;
      return `Signed out of ${service || 'a service'}`;
    case 'service-created':
      return `Service added: ${service}`;
    case 'service-changed': {
      const { changed } = readServiceDetail(detail);
      return changed.length ? `Service changed: ${service} (${changed.map((field) => SERVICE_FIELDS[field] ?? field).join(', ')})` : `Service changed: ${service}`;
    }
    case 'service-turned-on':
      return `Service turned on: ${service}`;
    case 'service-turned-off':
      return `Service turned off: ${service}`;
    case 'service-credentials-regenerated':
      return `New credentials: ${service}`;
    case 'service-deleted':
      return `Service deleted: ${service}`;
  }
}

// What anyone may set off, signed in or not: done by nobody known to be the account's owner.
const BY_ANYONE = new Set<AuditEvent['kind']>(['token-reused', 'sign-in-refused', 'password-reset-requested']);

/** Who acted: the person, an administrator, the command line, or someone unknown (a refused sign-in, a reset link asked for, a copied token). */
export function actorOf(event: Pick<AuditEvent, 'kind' | 'actor_id' | 'user_id'>): 'themselves' | 'administrator' | 'command line' | 'unknown' {
  if (event.actor_id === null) return BY_ANYONE.has(event.kind) ? 'unknown' : 'command line';
  return event.actor_id === event.user_id ? 'themselves' : 'administrator';
}

const ALARMING = new Set<AuditEvent['kind']>(['sign-in-refused', 'token-reused', 'account-disabled', 'account-deleted']);

/** Shown in red: refusals, copied tokens, accounts locked out or removed. */
export const isAlarming = (event: Pick<AuditEvent, 'kind'>) => ALARMING.has(event.kind);
