import { z } from 'zod';
import { authenticatorCodeField, recoveryCodeField, signInCodeField } from './two-step';
import { currentPasswordField, emailField, loginPasswordField, newPasswordField, phoneField, requiredText, typedEmailField, withRepeatedPassword } from './fields';

/** POST /api/v1/register */
export const registerRequestSchema = z.object({
  full_name: requiredText('Full name'),
  email: emailField,
  phone_number: phoneField,
  password: newPasswordField,
});
export type RegisterRequest = z.input<typeof registerRequestSchema>;

/** The registration form: the request plus the repeated password. */
export const registerFormSchema = withRepeatedPassword(registerRequestSchema, 'Repeat password');

export const registerResponseSchema = z.object({ id: z.string() });

/** GET /api/v1/register: whether anyone may register now, so the web app can say so before the form is filled. */
export const registrationStatusSchema = z.object({ open: z.boolean() });

/** POST /api/v1/auth/password: the signed-in person changes their password; their other sessions end. */
export const changePasswordRequestSchema = z.object({
  current_password: currentPasswordField,
  password: newPasswordField,
});

/** The form: the request plus the repeated new password. */
export const changePasswordFormSchema = withRepeatedPassword(changePasswordRequestSchema, 'Repeat Password');

/** POST /api/v1/auth/password-reset: mails a link to set a new password, if the address has an account. */
export const passwordResetRequestSchema = z.object({ email: typedEmailField });

/** POST /api/v1/auth/password-reset/confirm: the link's token and the new password. */
export const passwordResetConfirmSchema = z.object({
  token: z.string({ error: 'This link is incomplete. Open the whole link from the mail.' }).min(1, 'This link is incomplete. Open the whole link from the mail.').max(100, 'This link is not valid'),
  password: newPasswordField,
});

/** The form on the link's page: a new password, typed twice. */
export const passwordResetFormSchema = withRepeatedPassword(z.object({ password: newPasswordField }), 'Repeat Password');

/**
 * POST /api/v1/auth/login; `code` is asked for (401, field `code`) when two-step sign-in is on.
 * It is the authenticator app's code or a recovery code.
 */
export const loginRequestSchema = z.object({
  email: typedEmailField,
  password: loginPasswordField,
  code: signInCodeField.optional(),
});

/** The Sign In form once the server has asked for the authenticator app's code, or for a recovery code in its place. */
export const loginWithCodeSchema = loginRequestSchema.extend({ code: authenticatorCodeField });
export const loginWithRecoveryCodeSchema = loginRequestSchema.extend({ code: recoveryCodeField });

export const loginResponseSchema = z.object({
  id: z.string(),
  full_name: z.string(),
  email: z.string(),
  profile_picture: z.string().nullable(),
  access: z.string(),
  refresh: z.string(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** POST /api/v1/auth/refresh (the refresh token travels as the bearer credential) */
export const refreshResponseSchema = z.object({
  access: z.string(),
  refresh: z.string(),
});
export type RefreshResponse = z.infer<typeof refreshResponseSchema>;

/** GET /api/v1/auth/profile */
export const profileSchema = z.object({
  id: z.string(),
  email: z.string(),
  full_name: z.string(),
  /** Services such as Gitea name the person's account with it (`preferred_username`). */
  username: z.string(),
  phone_number: z.string().nullable(),
  profile_picture: z.string().nullable(),
  is_admin: z.boolean(),
  email_verified: z.boolean(),
  avatar_verified: z.boolean(),
  verified: z.boolean(),
});
export type Profile = z.infer<typeof profileSchema>;

/** One place the signed-in person is signed in to Home Guard (GET /api/v1/auth/sessions). */
export const ownSessionSchema = z.object({
  id: z.string(),
  /** base64 of JSON {os, os_version, browser, browser_version}, as in the admin's session list. */
  device_info: z.string(),
  ip_address: z.string().nullable(),
  issued_at: z.string(),
  last_active: z.string(),
  /** The session the request came from: this device. */
  current: z.boolean(),
});
export type OwnSession = z.infer<typeof ownSessionSchema>;
/** Live sessions only, the current one first, then the most recently active. */
export const ownSessionListSchema = z.object({ items: z.array(ownSessionSchema) });
/** DELETE /api/v1/auth/sessions: every other device signed out; how many there were. */
export const otherDevicesSignedOutSchema = z.object({ signed_out: z.number().int() });

/** A service the person is signed in to through Home Guard (GET /api/v1/auth/services). */
export const signedInServiceSchema = z.object({
  service_id: z.string(),
  name: z.string(),
  icon_url: z.string().nullable(),
  /** Live sessions at the service: one per device or app that signed in. 0 when it is only approved. */
  sessions: z.number().int(),
  /** The last activity of a live session; null without one. */
  last_active: z.string().nullable(),
  /** When its approval was last given or used (each sign-in through it renews it); null without one. */
  approved_at: z.string().nullable(),
});
export type SignedInService = z.infer<typeof signedInServiceSchema>;
/** The services signed in to or approved, most recently active (or approved) first. */
export const signedInServiceListSchema = z.object({ items: z.array(signedInServiceSchema) });

/** Calls without a payload accept an empty body or `{}`; anything else is refused. */
export const emptyBodySchema = z.union([z.undefined(), z.null(), z.object({}).strict()], { error: 'This request takes no body, or an empty JSON object' }).optional();
