import net from 'node:net';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { startSmtpSink } from '../../tests/support/smtp-sink';
import { createMailer, requiresStartTls } from './mailer';
import { passwordResetMail } from './password-reset-mail';
import { securityNoticeMail } from './security-notice';
import { verificationCodeMail } from './verification-code-mail';

const mail = { to: 'ada@example.com', subject: 'Hello', text: 'Hello', html: '<p>Hello</p>' };
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A relay that takes the connection, says `greeting` (if any), then nothing more, whatever it is sent. */
async function stalledRelay(greeting?: string): Promise<string> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    if (greeting) socket.write(greeting);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return `smtp://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

const send = (smtpUrl: string) => createMailer({ smtpUrl, from: 'Home Guard <guard@example.com>', dataDir: '/nonexistent', timeoutMs: 200 }).send(mail);

describe('the SMTP mailer', () => {
  it('gives up on a relay that never greets', async () => {
    const started = Date.now();
    await expect(send(await stalledRelay())).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_000);
  }, 5_000);

  it('gives up on a relay that greets and then stops answering', async () => {
    const started = Date.now();
    await expect(send(await stalledRelay('220 relay.example ESMTP\r\n'))).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_000);
  }, 5_000);
});

describe('the recipient', () => {
  it('is the stored address as it is: an address list written into it reaches no one else', async () => {
    const sink = await startSmtpSink();
    closers.push(() => sink.close());
    // Stored before the email rule refused such characters.
    await createMailer({ smtpUrl: sink.url, from: 'Home Guard <guard@example.com>', dataDir: '/nonexistent' }).send({ ...mail, to: 'x<victim@example.com>' }).catch(() => undefined);
    await createMailer({ smtpUrl: sink.url, from: 'Home Guard <guard@example.com>', dataDir: '/nonexistent' }).send({ ...mail, to: 'ada@example.com,victim@example.com' }).catch(() => undefined);
    expect(sink.mails.flatMap((received) => received.to)).not.toContain('victim@example.com');
  });
});

describe('the sender', () => {
  it('is MAIL_FROM as a name and an address, whatever the name holds', async () => {
    const sink = await startSmtpSink();
    closers.push(() => sink.close());
    const cases: Array<[string, string]> = [
      ['Home Guard: Alerts <guard@example.com>', '"Home Guard: Alerts" <guard@example.com>'],
      ['"Guard, Home" <guard@example.com>', '"Guard, Home" <guard@example.com>'],
      ['Home Guard (Alerts) <guard@example.com>', '"Home Guard (Alerts)" <guard@example.com>'],
      ['guard@example.com', 'guard@example.com'],
    ];
    for (const [from, header] of cases) {
      await createMailer({ smtpUrl: sink.url, from, dataDir: '/nonexistent' }).send(mail);
      expect(/^From: (.*)$/m.exec(sink.mails.at(-1)!.raw)?.[1]?.trim(), from).toBe(header);
    }
  });
});

describe('STARTTLS', () => {
  it('is required of a relay on another host, unless SMTP_URL says otherwise; smtps:// is TLS already', () => {
    expect(requiresStartTls('smtp://user:pass@mail.example:587')).toBe(true);
    expect(requiresStartTls('smtp://192.168.1.5:25')).toBe(true);
    expect(requiresStartTls('smtps://mail.example:465')).toBe(false);
    for (const local of ['smtp://localhost:25', 'smtp://127.0.0.1:2525', 'smtp://127.10.200.30:25', 'smtp://[::1]:25']) expect(requiresStartTls(local), local).toBe(false);
    // Names that only start or end like a loopback address are anyone's.
    for (const remote of ['smtp://127.0.0.1.mail.example:25', 'smtp://relay127.0.0.1:25']) expect(requiresStartTls(remote), remote).toBe(true);
  });

  it('required, a relay that offers none is given no mail; ?requireTLS=false in the URL lets it', async () => {
    // Not loopback: this machine's own address on its network.
    const address = Object.values(os.networkInterfaces()).flat().find((entry) => entry?.family === 'IPv4' && !entry.internal)?.address;
    expect(address, 'this test needs a network interface besides loopback').toBeDefined();
    const sink = await startSmtpSink({ host: address }); // offers no STARTTLS
    closers.push(() => sink.close());
    await expect(send(sink.url)).rejects.toThrow(/STARTTLS/i);
    expect(sink.mails).toEqual([]);
    await send(`${sink.url}?requireTLS=false`);
    expect(sink.mails).toHaveLength(1);
  });
});

describe('mails greeting a name', () => {
  it('keep the greeting on one line, whatever a stored name holds', () => {
    const name = 'Sam\r\n\u2028Your account will be deleted today.\tKeep it at\u0085https://evil.example\u202e';
    const mails = [
      securityNoticeMail('sam@example.com', name, { subject: 'S', what: 'W', ifNotYou: 'I' }),
      passwordResetMail('sam@example.com', name, 'https://id.example/auth/reset-password#t', 30),
    ];
    for (const mail of mails) {
      expect(mail.text.split('\n')[0]).toBe('Hello Sam Your account will be deleted today. Keep it at https://evil.example,');
      expect(mail.html).not.toMatch(/[\r\t\u0085\u2028\u202e]/);
    }
  });

  it('write the name into the HTML part as text, never as markup', () => {
    const name = `<a href="https://evil.example">Ada</a> & 'Co'`;
    const escaped = '&#60;a href=&#34;https://evil.example&#34;&#62;Ada&#60;/a&#62; &#38; &#39;Co&#39;';
    for (const mail of [securityNoticeMail('ada@example.com', name, { subject: 'S', what: 'W', ifNotYou: 'I' }), passwordResetMail('ada@example.com', name, 'https://id.example/auth/reset-password#t', 30)]) {
      expect(mail.html).toContain(`<p>Hello ${escaped},</p>`);
      expect(mail.html).not.toContain('evil.example">');
    }
  });

  it('greet no one at an address nobody has proved: whoever registered it chose the name', () => {
    for (const mail of [verificationCodeMail('sam@example.com', '123456', 10), passwordResetMail('sam@example.com', undefined, 'https://id.example/auth/reset-password#t', 30)]) {
      expect(mail.text.split('\n')[0]).toBe('Hello,');
      expect(mail.html).toContain('<p>Hello,</p>');
    }
  });
});

describe('the plain text of each mail', () => {
  it('is the greeting, what happened, what to do, and who sends it, a blank line apart', () => {
    expect(securityNoticeMail('ada@example.com', 'Ada', { subject: 'S', what: 'Your password was changed.', ifNotYou: 'If this was not you, reset it.' }).text).toBe(
      ['Hello Ada,', '', 'Your password was changed.', '', 'If this was not you, reset it.', '', '— Home Guard'].join('\n'),
    );
    expect(passwordResetMail('ada@example.com', 'Ada', 'https://id.example/auth/reset-password#t', 30).text).toBe(
      [
        'Hello Ada,',
        '',
        'Someone, hopefully you, asked to set a new password for your Home Guard account. Open this link to choose one:',
        '',
        'https://id.example/auth/reset-password#t',
        '',
        'It works once, for 30 minutes. If you did not ask for it, ignore this mail: your password stays as it is.',
        '',
        '— Home Guard',
      ].join('\n'),
    );
    expect(verificationCodeMail('ada@example.com', '123456', 10).text).toBe(
      ['Hello,', '', 'Your Home Guard verification code is: 123456', '', 'It is valid for 10 minutes. If you did not ask for it, you can ignore this mail.', '', '— Home Guard'].join('\n'),
    );
  });
});
