import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { to: string[]; raw: string };

export type SmtpSink = {
  url: string;
  mails: ReceivedMail[];
  /** The raw mails to `email`, oldest first, quoted-printable's soft line breaks undone (it folds long lines). */
  textsTo(email: string): string[];
  /** Their subjects. */
  subjectsTo(email: string): string[];
  /** While true, every recipient is refused with a temporary failure (451), as a relay that is down or full answers. */
  refusing: boolean;
  close(): Promise<void>;
};

/**
 * A real SMTP server, without STARTTLS, that keeps what it receives: on loopback unless `host`
 * names another of this machine's addresses; `acceptAfterMs` makes it a slow relay, and
 * `greetAfterMs` one slow to greet (nothing of a mail has arrived until then).
 */
export async function startSmtpSink(options: { acceptAfterMs?: number; greetAfterMs?: number; host?: string } = {}): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const state = { refusing: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      setTimeout(callback, options.greetAfterMs ?? 0);
    },
    onRcptTo(_address, _session, callback) {
      callback(state.refusing ? Object.assign(new Error('the relay is down'), { responseCode: 451 }) : undefined);
    },
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
  const textsTo = (email: string) => mails.filter((mail) => mail.to.includes(email)).map((mail) => mail.raw.replace(/=\r?\n/g, ''));
  return Object.assign(state, {
    url: `smtp://${host}:${port}`,
    mails,
    textsTo,
    subjectsTo: (email: string) => textsTo(email).map((raw) => /^Subject: (.+)$/m.exec(raw)![1]!),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** The 6-digit code in a verification mail. */
export function codeIn(raw: string): string {
  const match = /verification code is: (\d{6})/.exec(raw);
  if (!match) throw new Error(`no code in mail:\n${raw}`);
  return match[1]!;
}
