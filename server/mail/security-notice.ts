import type { FastifyBaseLogger } from 'fastify';
import type { BackgroundWork } from '../operations/background-work';
import { escapeHtml, greeting, type Mail, type Mailer } from './mailer';

/** What changed in how someone signs in, and what to do if they did not change it. */
export type Notice = { subject: string; what: string; ifNotYou: string };

/** The mail telling the account's owner of a change (ASVS 2.2.3), so what they did not do does not go unseen. */
export function securityNoticeMail(to: string, name: string, { subject, what, ifNotYou }: Notice): Mail {
  const text = [greeting(name), '', what, '', ifNotYou, '', '— Home Guard'].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1a1b1e">
<p>${escapeHtml(greeting(name))}</p>
<p>${escapeHtml(what)}</p>
<p>${escapeHtml(ifNotYou)}</p>
</body></html>`;
  return { to, subject, text, html };
}

export type NoticeTo = { id: string; email: string; full_name: string; email_verified: number };
export type Notify = (person: NoticeTo, notice: Notice) => void;

/**
 * Sends a notice without waiting for it: the change is made whether or not the mail goes out.
 * Only to an address its owner proved (as Keycloak's mail events do): anyone may register with
 * someone else's address, and each change they made would then mail that person.
 */
export const noticeSender = (mailer: Mailer, log: FastifyBaseLogger, background: BackgroundWork): Notify => (person, notice) => {
  if (person.email_verified !== 1) return;
  background.start(mailer.send(securityNoticeMail(person.email, person.full_name, notice)), (error) => log.error({ err: error, userId: person.id, subject: notice.subject }, 'a security notice could not be sent'));
};
