import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';

export type Mail = { to: string; subject: string; text: string; html: string };

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface Mailer {
  /** Sends the mail or throws; `outboxFile` is set when it was written to the outbox instead. */
  send(mail: Mail): Promise<{ outboxFile?: string }>;
}

// nodemailer is 2 MB of heap a server holds from start to end; loaded with the first mail instead.
function lazyTransport(options: Parameters<typeof import('nodemailer').createTransport>[0]): () => Promise<Transporter> {
  let transport: Promise<Transporter> | undefined;
  return () => (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(options)));
}

/**
 * SMTP when SMTP_URL is set (TLS or STARTTLS as the URL says); otherwise each mail becomes an
 * .eml file in DATA_DIR/outbox, so a home lab without a mail server can still read its codes.
 */
export function createMailer(options: { smtpUrl: string | undefined; from: string; dataDir: string }): Mailer {
  if (options.smtpUrl) {
    const transport = lazyTransport(options.smtpUrl);
    return {
      async send(mail) {
        await (await transport()).sendMail({ from: options.from, ...mail });
        return {};
      },
    };
  }
  const outbox = path.join(options.dataDir, 'outbox');
  const render = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await (await render()).sendMail({ from: options.from, ...mail });
      await mkdir(outbox, { recursive: true });
      const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^a-zA-Z0-9]/g, '')}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      return { outboxFile: file };
    },
  };
}
