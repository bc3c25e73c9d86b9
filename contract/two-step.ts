import { z } from 'zod';
import { currentPasswordField } from './fields';

/**
 * Two-step sign-in: a code from an authenticator app (TOTP, RFC 6238) as well as the password.
 * Apps show the code as "123 456", so spaces are dropped before the six digits are checked.
 */
export const authenticatorCodeField = z
  .string({ error: 'Code is required' })
  .transform((code) => code.replace(/\s+/g, ''))
  .pipe(z.string().min(1, 'Code is required').regex(/^\d{6}$/, 'The code is the 6 digits your authenticator app shows'));

/** GET, PUT and DELETE /api/v1/auth/two-step answer this. */
export const twoStepStatusSchema = z.object({
  enabled: z.boolean(),
  /** When it was turned on (ISO 8601); null while off. */
  since: z.string().nullable(),
});
export type TwoStepStatus = z.infer<typeof twoStepStatusSchema>;

/** POST /api/v1/auth/two-step/setup: a new secret for the app. Nothing is stored until a code proves the app has it. */
export const twoStepSetupSchema = z.object({
  /** Base32, for typing into the app by hand. */
  secret: z.string(),
  /** The otpauth:// address the QR code carries. */
  uri: z.string(),
});
export type TwoStepSetup = z.infer<typeof twoStepSetupSchema>;

/** PUT /api/v1/auth/two-step: turns it on with the set-up secret and a code the app made from it. */
export const twoStepTurnOnSchema = z.object({
  secret: z.string({ error: 'The setup key is missing; start again' }).regex(/^[A-Z2-7]{32}$/, 'The setup key is not valid; start again'),
  code: authenticatorCodeField,
});

/** DELETE /api/v1/auth/two-step: turning it off needs the password, not a code (the phone may be lost). */
export const twoStepTurnOffSchema = z.object({ current_password: currentPasswordField });
