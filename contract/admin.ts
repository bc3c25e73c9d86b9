import { z } from 'zod';
import { AUDIT_EVENT_GROUP_NAMES, auditEventSchema } from './audit';
import { currentPasswordField, emailField, groupsField, MAX_PAGE, newPasswordField, phoneField, requiredText, searchField, usernameField } from './fields';

/** GET /api/v1/admin/users items (spec §3). */
export const adminUserSchema = z.object({
  id: z.string(),
  full_name: z.string(),
  email: z.string(),
  is_admin: z.boolean(),
  created_at: z.string(),
  last_login: z.string().nullable(),
  profile_picture: z.string().nullable(),
  /** When an administrator disabled the account; null: it may sign in. */
  disabled_at: z.string().nullable(),
});
export const adminUserDetailSchema = adminUserSchema.extend({
  /** Services read it as `preferred_username`. */
  username: z.string(),
  phone_number: z.string().nullable(),
  email_verified: z.boolean(),
  avatar_verified: z.boolean(),
  verified: z.boolean(),
  /** Whether signing in asks for an authenticator app's code. */
  two_step_enabled: z.boolean(),
  groups: z.array(z.string()),
  /** The edit form's fields as they are now, as a fingerprint: sent back with the edit (see adminUserUpdateSchema). */
  edit_version: z.string(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;
export const adminUserListSchema = z.object({ items: z.array(adminUserSchema) });

/** POST /api/v1/admin/users */
export const adminUserCreateSchema = z.object({
  full_name: requiredText('Full Name'),
  email: emailField,
  password: newPasswordField,
  /** Left out: made from the email ("jane.doe" from jane.doe@example.com), with "-2" and on if taken. */
  username: usernameField.optional(),
  is_admin: z.boolean().optional().default(false),
  groups: groupsField.optional(),
});

/** PUT /api/v1/admin/users/{id}/status: a disabled account is signed out of Home Guard and every service, and cannot sign in. */
export const adminUserStatusSchema = z.object({ disabled: z.boolean() });

/** PUT /api/v1/admin/users/{id}/password: signs the user out of Home Guard everywhere. */
export const adminUserPasswordSchema = z.object({ password: newPasswordField });

/** The 409 of an edit whose edit_version is no longer the record's. */
export const changedMeanwhile = (record: 'account' | 'service') => `Another administrator changed this ${record} since you opened it: reload it to see their changes, then edit again`;

/** PUT /api/v1/admin/users/{id} */
export const adminUserUpdateSchema = z.object({
  full_name: requiredText('Full Name'),
  email: emailField,
  /** Left out: the username stays as it is. */
  username: usernameField.optional(),
  /** Left out: the phone number stays as it is; null or blank: removed. */
  phone_number: z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? null : value), phoneField.nullable()),
  is_admin: z.boolean(),
  /** Left out: the groups stay as they are. */
  groups: groupsField.optional(),
  /** An administrator changing their own email proves it is them, as Personal Info asks (ASVS 3.7.1). */
  current_password: currentPasswordField.optional(),
  /**
   * The detail's edit_version the form was filled from: the edit is refused (409) if another
   * administrator changed those fields since, rather than putting back what they changed.
   */
  edit_version: z.string().max(64).optional(),
});

const date = z.string();
const person = z.object({ full_name: z.string(), profile_picture: z.string().nullable() });

/** What every session row has: who, and its life (dates may be empty, shown 'never'). */
const sessionBase = z.object({
  id: z.string(),
  user_id: z.string(),
  user: person,
  ip_address: z.string().nullable(),
  is_active: z.boolean(),
  issued_at: date,
  expires_at: date.nullable(),
  last_active: date.nullable(),
  revoked_at: date.nullable(),
});

export const userSessionSchema = sessionBase.extend({ device_info: z.string() });
export type UserSession = z.infer<typeof userSessionSchema>;

export const serviceSessionSchema = sessionBase.extend({
  service_id: z.string(),
  api_service: z.object({ name: z.string(), icon_url: z.string().nullable() }),
  client_id: z.string(),
});
export type ServiceSession = z.infer<typeof serviceSessionSchema>;

export const pagedSchema = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), total_pages: z.number().int() });

/** A whole number in the address, `fallback` when left out or sent without a value (`?page=` is not page 0). */
const queryNumber = (min: number, max: number, fallback: number) =>
  z.preprocess((value) => (value === '' ? undefined : value), z.coerce.number().min(min).max(max).int().default(fallback));

/** ?page&size&search for the session tables (spec §9: page size 10, first page 1). */
export const pageQuerySchema = z.object({
  page: queryNumber(1, MAX_PAGE, 1),
  size: queryNumber(1, 100, 10),
  search: searchField.optional(),
});

/** GET /api/v1/admin/audit-log: pages of every event, or of one account's (`user_id`), one address's (`ip`), or one group of kinds. */
export const auditLogQuerySchema = pageQuerySchema.extend({
  user_id: z.string().max(64).optional(),
  ip: z.string().max(64).optional(),
  group: z.enum(AUDIT_EVENT_GROUP_NAMES, { error: `must be one of ${AUDIT_EVENT_GROUP_NAMES.join(', ')}` }).optional(),
});

/** Its answer: a page, and how many days the log keeps an event (AUDIT_LOG_DAYS). */
export const auditLogPageSchema = pagedSchema(auditEventSchema).extend({ kept_days: z.number().int().positive() });
