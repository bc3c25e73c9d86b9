import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { to: string[]; raw: string };

/**
 * A real SMTP server, without STARTTLS, that keeps what it receives: on loopback unless `host`
 * names another of this machine's addresses; `acceptAfterMs` makes it a slow relay.
 */
export async function startSmtpSink(options: { acceptAfterMs?: number; host?: string } = {}): Promise<{ url: string; mails: ReceivedMail[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        if (options.acceptAfterMs) setTimeout(callback, options.acceptAfterMs);
        else callback();
      });
    },
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.server.address() as { port: number };
  return { url: `smtp://${host}:${port}`, mails, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The 6-digit code in a verification mail. */
export function codeIn(raw: string): string {
  const match = /verification code is: (\d{6})/.exec(raw);
  if (!match) throw new Error(`no code in mail:\n${raw}`);
  return match[1]!;
}
