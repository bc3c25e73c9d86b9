import { escapeHtml, greeting, type Mail } from './mailer';

/** The mail that carries an email verification code: to an address not proved yet, so it greets no name (see greeting). */
export function verificationCodeMail(to: string, code: string, lifetimeMinutes: number): Mail {
  const subject = `${code} is your Home Guard verification code`;
  const text = [
    greeting(undefined),
    '',
    `Your Home Guard verification code is: ${code}`,
    '',
    `It is valid for ${lifetimeMinutes} minutes. If you did not ask for it, you can ignore this mail.`,
    '',
    '— Home Guard',
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1a1b1e">
<p>${escapeHtml(greeting(undefined))}</p>
<p>Your <strong>Home Guard</strong> verification code is:</p>
<p style="font-size:28px;font-weight:700;letter-spacing:6px">${code}</p>
<p>It is valid for ${lifetimeMinutes} minutes. If you did not ask for it, you can ignore this mail.</p>
</body></html>`;
  return { to, subject, text, html };
}
