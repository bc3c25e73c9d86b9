import { describe, expect, it } from 'vitest';
import { twoStepNotice } from './two-step-mail';

describe('the mail telling of a recovery code used', () => {
  it('says how many are left, and when none are, where to make new ones', () => {
    const used = 'Someone signed in to your Home Guard account with your password and one of your recovery codes, in place of a code from your authenticator app.';
    expect(twoStepNotice('recovery-code-used', 9).what).toBe(`${used} You have 9 recovery codes left.`);
    expect(twoStepNotice('recovery-code-used', 1).what).toBe(`${used} You have 1 recovery code left.`);
    expect(twoStepNotice('recovery-code-used', 0).what).toBe(`${used} You have no recovery codes left: make new ones under Personal Info.`);
  });

  it('says nothing of recovery codes where no count is given', () => {
    expect(twoStepNotice('turned-on').what).toBe('Two-step sign-in was turned on for your Home Guard account: signing in now asks for a code from an authenticator app as well as your password.');
  });
});
