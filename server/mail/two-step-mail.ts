import { escapeHtml, type Mail } from './mailer';

export type TwoStepChange = 'turned-on' | 'turned-off' | 'turned-off-by-administrator';

const SENTENCES: Record<TwoStepChange, { subject: string; what: string; ifNotYou: string }> = {
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
};

/** Told to the person whenever their second step changes, so a change they did not make does not go unseen. */
export function twoStepChangedMail(to: string, name: string, change: TwoStepChange): Mail {
  const { subject, what, ifNotYou } = SENTENCES[change];
  const text = [`Hello ${name},`, '', what, '', ifNotYou, '', '— Home Guard'].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1a1b1e">
<p>Hello ${escapeHtml(name)},</p>
<p>${escapeHtml(what)}</p>
<p>${escapeHtml(ifNotYou)}</p>
</body></html>`;
  return { to, subject, text, html };
}
