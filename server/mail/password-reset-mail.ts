import { escapeHtml, greeting, type Mail } from './mailer';

/** The mail that carries a link to set a new password; `name` is undefined for an address not proved (see greeting). */
export function passwordResetMail(to: string, name: string | undefined, link: string, lifetimeMinutes: number): Mail {
  const subject = 'Set a new Home Guard password';
  const text = [
    greeting(name),
    '',
    'Someone, hopefully you, asked to set a new password for your Home Guard account. Open this link to choose one:',
    '',
    link,
    '',
    `It works once, for ${lifetimeMinutes} minutes. If you did not ask for it, ignore this mail: your password stays as it is.`,
    '',
    '— Home Guard',
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1a1b1e">
<p>${escapeHtml(greeting(name))}</p>
<p>Someone, hopefully you, asked to set a new password for your <strong>Home Guard</strong> account.</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#1c7ed6;color:#fff;border-radius:6px;text-decoration:none;font-weight:600">Choose a new password</a></p>
<p>It works once, for ${lifetimeMinutes} minutes. If you did not ask for it, ignore this mail: your password stays as it is.</p>
</body></html>`;
  return { to, subject, text, html };
}
