import { z } from 'zod';

/** What the audit log records; the names are the API's, the UI words them. */
export const AUDIT_EVENT_KINDS = [
  'signed-in',
  'signed-out',
  'sign-in-refused',
  'password-changed',
  'password-reset-requested',
  'two-step-on',
  'two-step-off',
  'recovery-codes-renewed',
  'service-signed-in',
  'token-reused',
  'account-created',
  'account-changed',
  'account-disabled',
  'account-enabled',
  'account-deleted',
  'user-session-revoked',
  'service-session-revoked',
  'service-created',
  'service-changed',
  'service-turned-on',
  'service-turned-off',
  'service-credentials-regenerated',
  'service-deleted',
] as const;
export type AuditEventKind = (typeof AUDIT_EVENT_KINDS)[number];

/** The kinds the admin's Audit Log can be narrowed to, by what an administrator looks for. */
export const AUDIT_EVENT_GROUPS = {
  'sign-ins': ['signed-in', 'signed-out', 'service-signed-in'],
  refusals: ['sign-in-refused', 'token-reused'],
  accounts: ['password-changed', 'password-reset-requested', 'two-step-on', 'two-step-off', 'recovery-codes-renewed', 'account-created', 'account-changed', 'account-disabled', 'account-enabled', 'account-deleted', 'user-session-revoked', 'service-session-revoked'],
  services: ['service-created', 'service-changed', 'service-turned-on', 'service-turned-off', 'service-credentials-regenerated', 'service-deleted'],
} as const satisfies Record<string, readonly AuditEventKind[]>;
export type AuditEventGroup = keyof typeof AUDIT_EVENT_GROUPS;
export const AUDIT_EVENT_GROUP_NAMES = Object.keys(AUDIT_EVENT_GROUPS) as [AuditEventGroup, ...AuditEventGroup[]];

/** `detail` of a refused sign-in: told apart only in the log, never to whoever tried. */
export const SIGN_IN_REFUSALS = ['wrong-password', 'wrong-code', 'disabled'] as const;
export type SignInRefusal = (typeof SIGN_IN_REFUSALS)[number];

/**
 * Added to a signed-in event's `detail` (the sign-in's methods, as its amr says them) when a
 * recovery code stood in for the authenticator app: the owner who did not use one sees it was used.
 */
export const WITH_RECOVERY_CODE = 'recovery-code';

/** `detail` of a service-session-revoked event when no session was live: only the approval was withdrawn. */
export const SERVICE_APPROVAL_ONLY = 'approval-only';

/**
 * The detail of an administrator's event about a service: its name at the time (a name holds no
 * line break), and for a change, what changed (the settings' names), after a line break.
 */
export const serviceDetail = (name: string, changed: readonly string[] = []): string => (changed.length ? `${name}\n${changed.join(', ')}` : name);

export function readServiceDetail(detail: string): { name: string; changed: string[] } {
  const [name = '', changed] = detail.split('\n');
  return { name, changed: changed ? changed.split(', ') : [] };
}

/** `detail` of a token-reused event: what was presented a second time, ending the session it belonged to. */
export type ReusedToken = 'refresh-token' | 'code';

/**
 * One event, newest first in every list. `user` is the account it concerns (null when none, or
 * when that account was deleted since: `detail` of its deletion names it); `actor` who acted when
 * that is someone else (an administrator); null with no `actor_id`: the command line, or for a
 * refused sign-in or a reused token, whoever tried.
 */
export const auditEventSchema = z.object({
  id: z.string(),
  at: z.string(),
  kind: z.enum(AUDIT_EVENT_KINDS),
  user_id: z.string().nullable(),
  user: z.object({ full_name: z.string(), email: z.string(), profile_picture: z.string().nullable() }).nullable(),
  actor_id: z.string().nullable(),
  actor: z.object({ full_name: z.string() }).nullable(),
  service_id: z.string().nullable(),
  service: z.object({ name: z.string(), icon_url: z.string().nullable() }).nullable(),
  ip_address: z.string().nullable(),
  device_info: z.string().nullable(),
  detail: z.string().nullable(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

/** GET /api/v1/auth/activity: the signed-in account's latest events. */
export const ownActivitySchema = z.object({ items: z.array(auditEventSchema) });
