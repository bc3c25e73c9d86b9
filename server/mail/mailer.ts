import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export type Mail = { to: string; subject: string; text: string; html: string };

export interface Mailer {
  /** Sends the mail or throws; `outboxFile` is set when it was written to the outbox instead. */
  send(mail: Mail): Promise<{ outboxFile?: string }>;
}

/**
 * SMTP when SMTP_URL is set (TLS or STARTTLS as the URL says); otherwise each mail becomes an
 * .eml file in DATA_DIR/outbox, so a home lab without a mail server can still read its codes.
 */
export function createMailer(options: { smtpUrl: string | undefined; from: string; dataDir: string }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: options.from, ...mail });
        return {};
      },
    };
  }
  const outbox = path.join(options.dataDir, 'outbox');
  const render = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await render.sendMail({ from: options.from, ...mail });
      await mkdir(outbox, { recursive: true });
      const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^a-zA-Z0-9]/g, '')}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      return { outboxFile: file };
    },
  };
}
