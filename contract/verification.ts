import { z } from 'zod';

export const OTP_LENGTH = 6;
/** How long a mailed code works. */
export const OTP_LIFETIME_MINUTES = 10;

/** POST /api/v1/auth/email/otp */
export const otpRequestSchema = z.object({
  otp: z
    .string({ error: 'Code is required' })
    .trim()
    .length(OTP_LENGTH, `The code has ${OTP_LENGTH} characters`)
    .regex(/^\d+$/, 'The code has only digits'),
});
export type OtpRequest = z.infer<typeof otpRequestSchema>;

/** The answer of the verification calls: what is verified now. */
export const verificationStatusSchema = z.object({
  email_verified: z.boolean(),
  avatar_verified: z.boolean(),
  verified: z.boolean(),
  profile_picture: z.string().nullable(),
});
export type VerificationStatus = z.infer<typeof verificationStatusSchema>;

/** PUT /api/v1/avatar takes one multipart file field by this name. */
export const AVATAR_FIELD = 'image';
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
/** 40 megapixels: any real photo, while a decompression bomb (20000 × 20000) is refused unread. */
export const AVATAR_MAX_PIXELS = 40_000_000;
