import type { Profile } from '../../../contract/accounts';

export const VERIFY_STEPS = ['Verify Email', 'Profile Picture', 'Done'] as const;
export type VerifyStep = 'email' | 'avatar' | 'review' | 'done';

/** The step a profile is at (spec §4). */
export function stepOf(profile: Pick<Profile, 'email_verified' | 'avatar_verified' | 'verified'>): VerifyStep {
  if (!profile.email_verified) return 'email';
  if (!profile.avatar_verified) return 'avatar';
  if (!profile.verified) return 'review';
  return 'done';
}

/** The index of a step among VERIFY_STEPS (review and done are both the last). */
export const stepIndex = (step: VerifyStep): number => (step === 'email' ? 0 : step === 'avatar' ? 1 : 2);

/** Progress percent = step index / (steps − 1) (spec §9). */
export const progressOf = (step: VerifyStep): number => (stepIndex(step) / (VERIFY_STEPS.length - 1)) * 100;

/** The email step's placeholder: first character, asterisks, last character (spec §9). */
export function maskEmail(email: string): string {
  if (email.length <= 2) return '*'.repeat(email.length);
  return `${email[0]}${'*'.repeat(email.length - 2)}${email[email.length - 1]}`;
}

export const STEP_PATHS = { email: '/verify/email', avatar: '/verify/avatar', review: '/verify/review' } as const;
