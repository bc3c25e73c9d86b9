import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import { UNSAFE_IN_ONE_LINE } from '../../contract/fields';

export type Mail = { to: string; subject: string; text: string; html: string };

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * "Hello Jane," or, with no name, "Hello,": a mail to an address nobody has proved greets no one,
 * as whoever registered the address chose the name, and it would open a real Home Guard mail to
 * the mailbox's owner in their words ("Your mailbox closes today: keep it at https://…").
 * On one line: names are refused with control characters now, but one stored before that could
 * still write paragraphs of its own into the plain text of a mail.
 */
export const greeting = (name: string | undefined) => (name === undefined ? 'Hello,' : `Hello ${name.replace(new RegExp(`${UNSAFE_IN_ONE_LINE.source}+`, 'g'), ' ').trim()},`);

export interface Mailer {
  /** Sends the mail or throws; `outboxFile` is set when it was written to the outbox instead. */
  send(mail: Mail): Promise<{ outboxFile?: string }>;
  /** The outbox only: deletes its mails written at or before `cutoff` (ms since the epoch); answers how many. */
  forgetOutboxMails?(cutoff: number): Promise<number>;
}

// nodemailer is 2 MB of heap a server holds from start to end; loaded with the first mail instead.
function lazyTransport(options: Parameters<typeof import('nodemailer').createTransport>[0]): () => Promise<Transporter> {
  let transport: Promise<Transporter> | undefined;
  return () => (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(options)));
}

/**
 * How long a relay may take to connect, to greet, or to answer any one command. nodemailer's own
 * (2 minutes, 30 seconds, 10 minutes) let a stalled relay hold a request that long; a relay that is
 * merely slow answers well within this. Parameters in SMTP_URL's query still win.
 */
export const SMTP_TIMEOUT_MS = 15_000;

/**
 * MAIL_FROM ("Name <address>" or the address alone, as config.ts checks it) as a name and an
 * address, which nodemailer quotes as a header needs: given the string, it wrote "Home Guard:
 * Alerts <…>" as an address group, which a From header may not hold (RFC 5322 §3.6.2).
 */
function sender(from: string): { name: string; address: string } {
  const named = /^(.*?)\s*<([^<>]+)>$/.exec(from);
  if (!named) return { name: '', address: from };
  return { name: named[1]!.replace(/^"(.*)"$/, '$1'), address: named[2]! };
}

/** Sent by a machine (RFC 3834): out-of-office replies, which would answer every notice and code, stay away. */
const AUTOMATIC = { 'Auto-Submitted': 'auto-generated', 'X-Auto-Response-Suppress': 'All' };

/**
 * The stored address as the one recipient. Given as a string, nodemailer would read it as an
 * address list, where `x<victim@example.com>` is the mailbox of someone else.
 */
const addressed = (from: string, mail: Mail) => ({ from: sender(from), ...mail, to: { name: '', address: mail.to }, headers: AUTOMATIC });

/**
 * Whether an smtp:// relay must upgrade to TLS (STARTTLS) before it is given a mail. nodemailer
 * upgrades only when the relay offers to, so someone on the path could strip the offer and read
 * the reset links. A relay on this machine is exempt; `?requireTLS=false` in SMTP_URL exempts a
 * trusted relay without TLS (smtps:// is TLS from the start).
 */
export function requiresStartTls(smtpUrl: string): boolean {
  const { protocol, hostname } = new URL(smtpUrl);
  const loopback = hostname === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(hostname) || hostname === '[::1]';
  return protocol === 'smtp:' && !loopback;
}

/**
 * SMTP when SMTP_URL is set (TLS or STARTTLS as the URL says); otherwise each mail becomes an
 * .eml file in DATA_DIR/outbox, so a home lab without a mail server can still read its codes.
 */
export function createMailer(options: { smtpUrl: string | undefined; from: string; dataDir: string; timeoutMs?: number }): Mailer {
  if (options.smtpUrl) {
    const timeout = options.timeoutMs ?? SMTP_TIMEOUT_MS;
    const transport = lazyTransport({ url: options.smtpUrl, requireTLS: requiresStartTls(options.smtpUrl), connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout });
    return {
      async send(mail) {
        await (await transport()).sendMail(addressed(options.from, mail));
        return {};
      },
    };
  }
  const outbox = path.join(options.dataDir, 'outbox');
  const render = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await (await render()).sendMail(addressed(options.from, mail));
      await mkdir(outbox, { recursive: true, mode: 0o700 });
      const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^a-zA-Z0-9]/g, '')}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      return { outboxFile: file };
    },
    async forgetOutboxMails(cutoff) {
      const names = await readdir(outbox).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? [] : Promise.reject(error)));
      let forgotten = 0;
      for (const name of names.filter((file) => file.endsWith('.eml'))) {
        const file = path.join(outbox, name);
        // Gone since the listing (another replica on the same DATA_DIR pruned it): nothing to do.
        const written = await stat(file).then(({ mtimeMs }) => mtimeMs, () => Infinity);
        if (written > cutoff) continue;
        await rm(file, { force: true });
        forgotten += 1;
      }
      return forgotten;
    },
  };
}
