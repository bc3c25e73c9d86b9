import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { to: string[]; raw: string };

/** A real SMTP server on loopback that keeps what it receives. */
export async function startSmtpSink(): Promise<{ url: string; mails: ReceivedMail[]; close(): Promise<void> }> {
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
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The 6-digit code in a verification mail. */
export function codeIn(raw: string): string {
  const match = /verification code is: (\d{6})/.exec(raw);
  if (!match) throw new Error(`no code in mail:\n${raw}`);
  return match[1]!;
}
