import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMailer } from '../../server/mail/mailer';
import { EmailCodes } from '../../server/verification/email-codes';
import { holdTheNextCallBeforeItRuns, meetingAt } from '../support/hold-a-call';
import { codeIn, startSmtpSink } from '../support/smtp-sink';
import { call, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await t.close();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const sendCode = (token: string) => call(t.app, 'POST', '/api/v1/auth/email', { token, body: {} });
const confirm = (token: string, otp: string) => call(t.app, 'POST', '/api/v1/auth/email/otp', { token, body: { otp } });
const otherThan = (code: string) => (code === '000000' ? '111111' : '000000');
const WAIT_A_MINUTE = 'A code was sent a moment ago; wait a minute before asking for another';
// The limits span a day: the access token must outlive the moves of the clock.
const LONG_TOKENS = { ACCESS_TOKEN_TTL: String(3 * 24 * 3600) };

/** The app, mailing through a real relay the test can take down; `codes` are those of the verification mails sent. */
async function withRelay(env: Record<string, string> = {}, sink: Parameters<typeof startSmtpSink>[0] = {}) {
  const relay = await startSmtpSink(sink);
  cleanups.push(relay.close);
  t = await startTestApp({ ...env, SMTP_URL: relay.url });
  return { relay, codes: () => relay.mails.filter((mail) => mail.raw.includes('verification code is:')).map((mail) => codeIn(mail.raw)) };
}

/** A relay that takes the connection and never says a word (a tarpit, a hung server). */
async function silentRelay(): Promise<string> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return `smtp://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

describe('the one-a-minute limit on codes', () => {
  it('lets one of ten requests sent at once to a slow relay mail a code; the others are told to wait', async () => {
    const mails = await withRelay({}, { acceptAfterMs: 300 });
    const user = await registerAndLogin(t.app);
    const answers = await Promise.all(Array.from({ length: 10 }, () => sendCode(user.access)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...Array<number>(9).fill(429)]);
    for (const refused of answers.filter((answer) => answer.status === 429)) {
      expect(refused.body).toEqual({ error: WAIT_A_MINUTE });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(mails.codes()).toHaveLength(1);
    expect((await confirm(user.access, mails.codes()[0]!)).body.email_verified).toBe(true);
  });

  /** A person mailed one code, a minute ago; the relay is down now. */
  async function codeMailedThenRelayDown() {
    const mails = await withRelay();
    const user = await registerAndLogin(t.app);
    await sendCode(user.access);
    const first = mails.codes()[0]!;
    t.advance(61_000);
    mails.relay.refusing = true;
    return { mails, user, first };
  }

  it('lets one of two requests that both found no code sent in the last minute mail one (two replicas, or a pool of connections)', async () => {
    const mails = await withRelay();
    const user = await registerAndLogin(t.app);
    // Each is held once it has found no code sent in the last minute, just before it takes the
    // minute's slot, until both are: only taking the slot tells them apart.
    const codes = EmailCodes.prototype as unknown as { claim(userId: string, now: number): Promise<boolean> };
    const answers = await meetingAt(() => holdTheNextCallBeforeItRuns(codes, 'claim'), [() => sendCode(user.access), () => sendCode(user.access)]);
    expect(answers.map((answer) => [answer.status, answer.body.error]).sort()).toEqual([[200, undefined], [429, WAIT_A_MINUTE]]);
    expect(mails.codes()).toHaveLength(1);
  });

  it('lets a request that took the slot a moment before another, both having found no code, hold that one back too', async () => {
    const mails = await withRelay();
    const user = await registerAndLogin(t.app);
    const codes = EmailCodes.prototype as unknown as { claim(userId: string, now: number): Promise<boolean> };
    const first = holdTheNextCallBeforeItRuns(codes, 'claim');
    const firstAnswer = sendCode(user.access);
    await first.held;
    t.advance(1);
    const second = holdTheNextCallBeforeItRuns(codes, 'claim');
    const secondAnswer = sendCode(user.access);
    await second.held;
    first.release();
    expect((await firstAnswer).status).toBe(200);
    second.release();
    const refused = await secondAnswer;
    expect([refused.status, refused.body.error]).toEqual([429, WAIT_A_MINUTE]);
    expect(mails.codes()).toHaveLength(1);
  });

  it("a code mailed while the server's clock ran fast does not hold the next one back for hours", async () => {
    const mails = await withRelay(LONG_TOKENS);
    const user = await registerAndLogin(t.app);
    t.advance(3 * 3_600_000); // three hours fast, after a power cut
    expect((await sendCode(user.access)).status).toBe(200);
    t.advance(-3 * 3_600_000); // NTP sets it right
    const again = await sendCode(user.access);
    expect([again.status, again.headers['retry-after']]).toEqual([200, undefined]);
    expect(mails.codes()).toHaveLength(2);
    expect((await confirm(user.access, mails.codes()[1]!)).status).toBe(200);
  });

  it('keeps the code mailed before working when the next mail fails', async () => {
    const { user, first } = await codeMailedThenRelayDown();
    const failed = await sendCode(user.access);
    expect([failed.status, failed.body]).toEqual([503, { error: 'The verification email could not be sent; try again later' }]);
    expect((await confirm(user.access, first)).body.email_verified).toBe(true);
  });

  it('gives the minute back when the mail fails: the person may ask again at once, and only the newest code works', async () => {
    const { mails, user, first } = await codeMailedThenRelayDown();
    expect((await sendCode(user.access)).status).toBe(503);
    mails.relay.refusing = false;
    expect((await sendCode(user.access)).status).toBe(200);
    const second = mails.codes()[1]!;
    if (second !== first) expect((await confirm(user.access, first)).status).toBe(400);
    expect((await confirm(user.access, second)).body.email_verified).toBe(true);
  });

  it('answers 503 soon when the relay never greets, and lets the person ask again at once', async () => {
    const smtpUrl = await silentRelay();
    t = await startTestApp({}, { mailer: createMailer({ smtpUrl, from: 'Home Guard <guard@example.com>', dataDir: '/nonexistent', timeoutMs: 300 }) });
    const user = await registerAndLogin(t.app);
    for (let i = 0; i < 2; i++) {
      const answer = await sendCode(user.access);
      expect([answer.status, answer.body]).toEqual([503, { error: 'The verification email could not be sent; try again later' }]);
    }
    expect(await t.db.selectFrom('email_otps').selectAll().execute()).toEqual([]);
  }, 10_000);
});

describe('the limits per account', () => {
  it('mails at most 5 codes an hour and 20 a day, and says when the next may be asked for', async () => {
    const mails = await withRelay(LONG_TOKENS);
    const user = await registerAndLogin(t.app);
    for (let hour = 0; hour < 4; hour++) {
      for (let i = 0; i < 5; i++) {
        expect((await sendCode(user.access)).status, `hour ${hour}, code ${i}`).toBe(200);
        t.advance(61_000);
      }
      if (hour === 3) break;
      const refused = await sendCode(user.access);
      expect([refused.status, refused.body]).toEqual([429, { error: 'Too many codes have been sent; you can ask for a new one in 55 minutes' }]);
      expect(refused.headers['retry-after']).toBe(String(3600 - 5 * 61));
      t.advance((3600 - 5 * 61) * 1000);
    }
    // 20 codes in 3 hours and 5 minutes: the day's limit, whose wait is told.
    const sixthOfTheHour = await sendCode(user.access);
    expect([sixthOfTheHour.status, sixthOfTheHour.body]).toEqual([429, { error: 'Too many codes have been sent; you can ask for a new one in 21 hours' }]);
    t.advance((3600 - 5 * 61) * 1000);
    const nextHour = await sendCode(user.access);
    expect([nextHour.status, nextHour.body]).toEqual([429, { error: 'Too many codes have been sent; you can ask for a new one in 20 hours' }]);
    expect(nextHour.headers['retry-after']).toBe(String(20 * 3600));
    expect(mails.codes()).toHaveLength(20);
    t.advance(20 * 3600 * 1000);
    expect((await sendCode(user.access)).status).toBe(200);
    expect((await confirm(user.access, mails.codes()[20]!)).body.email_verified).toBe(true);
  });

  it('refuses codes for the rest of the day after 20 wrong ones, whichever codes they were typed for', async () => {
    const mails = await withRelay(LONG_TOKENS);
    const user = await registerAndLogin(t.app);
    for (let round = 0; round < 4; round++) {
      expect((await sendCode(user.access)).status).toBe(200);
      const wrong = otherThan(mails.codes().at(-1)!);
      for (let i = 0; i < 5; i++) expect((await confirm(user.access, wrong)).status).toBe(400);
      t.advance(61_000);
    }
    const usedUp = { error: 'Too many wrong codes today; you can try again in 24 hours' };
    const send = await sendCode(user.access);
    expect([send.status, send.body]).toEqual([429, usedUp]);
    expect(send.headers['retry-after']).toBe(String(24 * 3600 - 4 * 61));
    expect(mails.codes()).toHaveLength(4);
    const guess = await confirm(user.access, '123456');
    expect([guess.status, guess.body]).toEqual([429, usedUp]);

    t.advance((24 * 3600 - 4 * 61) * 1000);
    expect((await sendCode(user.access)).status).toBe(200);
    expect((await confirm(user.access, mails.codes()[4]!)).body.email_verified).toBe(true);
  });

  it("judges five of thirty guesses sent at once, and tells none of the others that the day's guesses are used up", async () => {
    const mails = await withRelay(LONG_TOKENS);
    const user = await registerAndLogin(t.app);
    await sendCode(user.access);
    const wrong = otherThan(mails.codes()[0]!);
    const answers = await Promise.all(Array.from({ length: 30 }, () => confirm(user.access, wrong)));
    expect(answers.filter((answer) => answer.status === 429).map((answer) => answer.body.error)).toEqual([]);
    expect(answers.filter((answer) => answer.body.error === 'The code is not correct').length).toBeLessThanOrEqual(4);
    // The day's count is of the guesses judged, and a new code can be asked for and used.
    t.advance(61_000);
    expect((await sendCode(user.access)).status).toBe(200);
    expect((await confirm(user.access, mails.codes()[1]!)).status).toBe(200);
  });

  it('does not count a right code as a wrong one', async () => {
    const mails = await withRelay(LONG_TOKENS);
    const user = await registerAndLogin(t.app);
    await sendCode(user.access);
    const code = mails.codes()[0]!;
    for (let i = 0; i < 4; i++) await confirm(user.access, otherThan(code));
    expect((await confirm(user.access, code)).status).toBe(200);
    expect(await t.db.selectFrom('throttle').select(['key', 'failures']).where('key', 'like', 'email-code:wrong:%').execute()).toEqual([{ key: `email-code:wrong:${user.id}`, failures: 4 }]);
  });
});
