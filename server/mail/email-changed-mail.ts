import type { Notice } from './security-notice';

/** Told at the old address when an administrator moves the account to another one. */
export const emailChangedNotice = (newEmail: string): Notice => ({
  subject: 'Your Home Guard email address was changed',
  what: `An administrator changed the email address of your Home Guard account to ${newEmail}. Mail about the account, such as password reset links, now goes there, and links mailed here before no longer work.`,
  ifNotYou: 'If you did not ask for this, tell your administrator.',
});
