import { z } from 'zod';
import { currentPasswordField } from './fields';

/** An authenticator app's code (TOTP, RFC 6238): six digits. */
/** An authenticator app's code: six digits (RFC 6238 as every app uses it). */
export const APP_CODE_PATTERN = /^\d{6}$/;

/** A recovery code as Home Guard shows it: ten hex digits, "3f9a2-c07b1". Case and the hyphen do not matter. */
export const RECOVERY_CODE_PATTERN = /^[0-9a-f]{5}-?[0-9a-f]{5}$/i;

/** Apps show the code as "123 456" and people paste codes with spaces, so spaces go before the check; a blank is only "required". */
function codeField(required: string, isValid: (code: string) => boolean, invalid: string) {
  return z
    .string({ error: required })
    .transform((code) => code.replace(/\s+/g, ''))
    .pipe(z.string().min(1, { error: required, abort: true }).refine(isValid, invalid));
}

/** Two-step sign-in: a code from an authenticator app as well as the password. */
export const authenticatorCodeField = codeField('Code is required', (code) => APP_CODE_PATTERN.test(code), 'The code is the 6 digits your authenticator app shows');

export const recoveryCodeField = codeField(
  'Recovery code is required',
  (code) => RECOVERY_CODE_PATTERN.test(code),
  'A recovery code is 10 letters and digits, like 3f9a2-c07b1',
);

/** What sign-in takes as its second step: the app's code or, with the phone lost, a recovery code. */
export const signInCodeField = codeField(
  'Code is required',
  (code) => APP_CODE_PATTERN.test(code) || RECOVERY_CODE_PATTERN.test(code),
  'The code is the 6 digits your authenticator app shows, or a recovery code',
);

/** GET, PUT and DELETE /api/v1/auth/two-step answer this. */
export const twoStepStatusSchema = z.object({
  enabled: z.boolean(),
  /** When it was turned on (ISO 8601); null while off. */
  since: z.string().nullable(),
  /** Recovery codes not yet used; 0 while off. */
  recovery_codes_left: z.number().int(),
});
export type TwoStepStatus = z.infer<typeof twoStepStatusSchema>;

/** POST /api/v1/auth/two-step/setup: a new secret for the app, which turns it on once a code proves the app has it (within an hour, and only the latest setup's). */
export const twoStepSetupSchema = z.object({
  /** Base32, for typing into the app by hand. */
  secret: z.string(),
  /** The otpauth:// address the QR code carries. */
  uri: z.string(),
});
export type TwoStepSetup = z.infer<typeof twoStepSetupSchema>;

/**
 * PUT /api/v1/auth/two-step: turns it on with the latest setup's secret, a code the app made from it, and
 * the password, as turning it off needs: whoever holds only a session cannot enrol their own app
 * (ASVS 3.7.1).
 */
export const twoStepTurnOnSchema = z.object({
  secret: z.string({ error: 'The setup key is missing; start again' }).regex(/^[A-Z2-7]{32}$/, 'The setup key is not valid; start again'),
  code: authenticatorCodeField,
  current_password: currentPasswordField,
});

/** Each works once, in place of the app's code. Shown only when made: only their hashes are kept. */
export const recoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** PUT /api/v1/auth/two-step answers with the new state and the first recovery codes. */
export const twoStepTurnedOnSchema = twoStepStatusSchema.extend(recoveryCodesSchema.shape);
export type TwoStepTurnedOn = z.infer<typeof twoStepTurnedOnSchema>;

/** POST /api/v1/auth/two-step/recovery-codes: new codes for old ones, after the password. */
export const newRecoveryCodesSchema = z.object({ current_password: currentPasswordField });

/** DELETE /api/v1/auth/two-step: turning it off needs the password, not a code (the phone may be lost). */
export const twoStepTurnOffSchema = z.object({ current_password: currentPasswordField });
