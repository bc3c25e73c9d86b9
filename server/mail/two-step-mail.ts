import type { Notice } from './security-notice';

export type TwoStepChange = 'turned-on' | 'turned-off' | 'turned-off-by-administrator' | 'recovery-codes-renewed' | 'recovery-code-used' | 'code-refused';

const SENTENCES: Record<TwoStepChange, Notice> = {
  'turned-on': {
    subject: 'Two-step sign-in is on for your Home Guard account',
    what: 'Two-step sign-in was turned on for your Home Guard account: signing in now asks for a code from an authenticator app as well as your password.',
    ifNotYou: 'If this was not you, someone else can sign in as you: change your password and ask your administrator to turn two-step sign-in off, so you can set it up with your own app.',
  },
  'turned-off': {
    subject: 'Two-step sign-in is off for your Home Guard account',
    what: 'Two-step sign-in was turned off for your Home Guard account: your password alone now signs in.',
    ifNotYou: 'If this was not you, change your password at once and turn two-step sign-in on again under Personal Info.',
  },
  'turned-off-by-administrator': {
    subject: 'Two-step sign-in is off for your Home Guard account',
    what: 'An administrator turned off two-step sign-in for your Home Guard account: your password alone now signs in. You can set it up again under Personal Info.',
    ifNotYou: 'If you did not ask for this, tell your administrator and change your password.',
  },
  'recovery-codes-renewed': {
    subject: 'New recovery codes for your Home Guard account',
    what: 'New recovery codes were made for your Home Guard account. The old ones no longer work.',
    ifNotYou: 'If this was not you, someone knows your password and can sign in without your phone: change your password at once and make new recovery codes under Personal Info.',
  },
  'code-refused': {
    subject: 'A sign-in to Home Guard was stopped at the second step',
    what: 'Someone signed in to your Home Guard account with your password, but the code they gave was wrong or already used, so they were not let in.',
    ifNotYou: 'If this was not you, someone knows your password: change it at once under Personal Info. If it was you, there is nothing to do.',
  },
  'recovery-code-used': {
    subject: 'A recovery code was used to sign in to Home Guard',
    what: 'Someone signed in to your Home Guard account with your password and one of your recovery codes, in place of a code from your authenticator app.',
    ifNotYou: 'If this was not you, change your password at once, and under Personal Info sign out the devices you do not know and make new recovery codes.',
  },
};

/**
 * Told to the person whenever their second step changes or a recovery code stands in for it.
 * `codesLeft` says how many recovery codes are still unused.
 */
export function twoStepNotice(change: TwoStepChange, codesLeft?: number): Notice {
  const left = codesLeft === undefined ? '' : codesLeft === 0 ? ' You have no recovery codes left: make new ones under Personal Info.' : ` You have ${codesLeft} recovery code${codesLeft === 1 ? '' : 's'} left.`;
  return { ...SENTENCES[change], what: SENTENCES[change].what + left };
}
