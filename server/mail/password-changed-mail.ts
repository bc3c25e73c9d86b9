import type { Notice } from './security-notice';

/** How a password came to change: by its owner, by a mailed link, or by an administrator (admin area or command line). */
export type PasswordChange = 'changed' | 'reset-by-link' | 'set-by-administrator';

const FORGOT = 'with "Forgot password?" on Sign In';

/** Told to the person whenever their password changes, whoever changed it. */
export const PASSWORD_NOTICES: Record<PasswordChange, Notice> = {
  changed: {
    subject: 'Your Home Guard password was changed',
    what: 'The password of your Home Guard account was changed, and your other devices and every service were signed out.',
    ifNotYou: `If this was not you, someone else has your password: reset it at once ${FORGOT}, and tell your administrator.`,
  },
  'reset-by-link': {
    subject: 'Your Home Guard password was reset',
    what: 'The password of your Home Guard account was reset with a link mailed to this address, and every device and service was signed out.',
    ifNotYou: `If this was not you, someone can read your mail: secure your mail account, reset your password again ${FORGOT}, and tell your administrator.`,
  },
  'set-by-administrator': {
    subject: 'Your Home Guard password was changed by an administrator',
    what: 'An administrator set a new password for your Home Guard account, and every device and service was signed out.',
    ifNotYou: 'If you did not ask for this, tell your administrator.',
  },
};
