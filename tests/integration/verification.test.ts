import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AVATAR_MAX_BYTES } from '../../contract/verification';
import { AccountsService } from '../../server/accounts/accounts-service';
import { UsersRepository } from '../../server/accounts/users-repository';
import { createMailer } from '../../server/mail/mailer';
import { ServiceSessionsRepository } from '../../server/oauth/service-sessions-repository';
import { FailureThrottle } from '../../server/throttle/failure-throttle';
import { CODES_SENT, EmailCodes } from '../../server/verification/email-codes';
import { jpegWithGps, noisyPngOf, pngClaiming, pngOf } from '../support/images';
import { holdTheNextCallAfterItsAnswer, meetingAt } from '../support/hold-a-call';
import { codeIn, startSmtpSink } from '../support/smtp-sink';
import { call, capturedLog, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let t: TestApp;
let baseUrl: string;

beforeAll(async () => {
  smtp = await startSmtpSink();
});
afterAll(async () => smtp.close());
beforeEach(async () => {
  t = await startTestApp({ SMTP_URL: smtp.url });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterEach(async () => t.close());

const profile = async (token: string) => (await call(t.app, 'GET', '/api/v1/auth/profile', { token })).body;
const sendCode = (token: string) => call(t.app, 'POST', '/api/v1/auth/email', { token, body: {} });
const confirm = (token: string, otp: string) => call(t.app, 'POST', '/api/v1/auth/email/otp', { token, body: { otp } });
const mailTo = (email: string) => [...smtp.mails].reverse().find((mail) => mail.to.includes(email))!;

async function upload(token: string, bytes: Buffer, filename = 'avatar.png', type = 'image/png') {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(bytes)], { type }), filename);
  const response = await fetch(`${baseUrl}/api/v1/avatar`, { method: 'PUT', headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('email verification', () => {
  it('mails a 6-digit code over SMTP; the right code verifies the email once', async () => {
    const user = await registerAndLogin(t.app);
    expect((await sendCode(user.access)).status).toBe(200);
    const mail = mailTo(user.email);
    expect(mail.raw).toMatch(/Subject: \d{6} is your Home Guard verification code/);
    expect(mail.raw).toMatch(/Content-Type: text\/html/);
    expect(mail.raw).toMatch(/valid for 10 minutes/);
    const code = codeIn(mail.raw);
    const stored = await t.db.selectFrom('email_otps').selectAll().executeTakeFirstOrThrow();
    expect(stored.code_hash).not.toContain(code);

    expect((await confirm(user.access, code)).body).toMatchObject({ email_verified: true, avatar_verified: false, verified: false });
    expect((await profile(user.access)).email_verified).toBe(true);
    // Sent again from another tab: the email is verified, and the answer says so, not that the code is gone.
    const again = await confirm(user.access, code);
    expect([again.status, again.body.email_verified]).toEqual([200, true]);
  });

  it('a code sent twice at once (a double submit) verifies the email, and both are told so', async () => {
    const user = await registerAndLogin(t.app);
    await sendCode(user.access);
    const code = codeIn(mailTo(user.email).raw);
    const answers = await Promise.all([confirm(user.access, code), confirm(user.access, code)]);
    expect(answers.map((answer) => [answer.status, answer.body.email_verified])).toEqual([[200, true], [200, true]]);
    const resend = await sendCode(user.access);
    expect([resend.status, resend.body.error]).toEqual([409, 'Your email is already verified']);
  });

  it('a double submit whose halves both found the email unverified: the one that finds its code used up is told it is verified', async () => {
    const user = await registerAndLogin(t.app);
    await sendCode(user.access);
    const code = codeIn(mailTo(user.email).raw);
    // Each half is held once it has found the email unverified and its guesses not used up, until both are.
    const answers = await meetingAt(() => holdTheNextCallAfterItsAnswer(FailureThrottle.prototype, 'check'), [() => confirm(user.access, code), () => confirm(user.access, code)]);
    expect(answers.map((answer) => [answer.status, answer.body.email_verified])).toEqual([[200, true], [200, true]]);
  });

  it('kills the code after 5 wrong tries: the 6th fails even when right', async () => {
    const user = await registerAndLogin(t.app);
    await sendCode(user.access);
    const code = codeIn(mailTo(user.email).raw);
    const wrong = code === '000000' ? '111111' : '000000';
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await confirm(user.access, wrong));
    const usedUp = [400, { error: 'Too many wrong codes; request a new one' }];
    expect(answers.map((answer) => [answer.status, answer.body])).toEqual([...Array(4).fill([400, { error: 'The code is not correct' }]), usedUp]);
    const sixth = await confirm(user.access, code);
    expect([sixth.status, sixth.body]).toEqual(usedUp);
    expect((await profile(user.access)).email_verified).toBe(false);
  });

  it('takes the right code after a mistyped one', async () => {
    const user = await registerAndLogin(t.app);
    await sendCode(user.access);
    const code = codeIn(mailTo(user.email).raw);
    expect((await confirm(user.access, code === '000000' ? '111111' : '000000')).body).toEqual({ error: 'The code is not correct' });
    expect((await confirm(user.access, code)).status).toBe(200);
    expect((await profile(user.access)).email_verified).toBe(true);
  });

  it('refuses an expired code, and throttles resending', async () => {
    const user = await registerAndLogin(t.app);
    await sendCode(user.access);
    t.advance(20_000);
    const resend = await sendCode(user.access);
    expect(resend.status).toBe(429);
    expect(resend.body.error).toMatch(/wait a minute/);
    expect(resend.headers['retry-after']).toBe('40');
    const code = codeIn(mailTo(user.email).raw);
    t.advance(10 * 60_000 - 20_000);
    const late = await confirm(user.access, code);
    expect(late.status).toBe(400);
    expect(late.body.error).toMatch(/expired/);
    // Past the throttle a new code is sent, and it works.
    expect((await sendCode(user.access)).status).toBe(200);
    expect((await confirm(user.access, codeIn(mailTo(user.email).raw))).status).toBe(200);
  });

  it('sends a new code a minute after the last, not before', async () => {
    const user = await registerAndLogin(t.app);
    expect((await sendCode(user.access)).status).toBe(200);
    t.advance(59_999);
    expect((await sendCode(user.access)).status).toBe(429);
    t.advance(1);
    expect((await sendCode(user.access)).status).toBe(200);
  });

  it('sends no more codes asked for from one address than its limit, whoever the accounts are', async () => {
    // Behind a proxy, so that each request can say where it comes from.
    await t.close();
    t = await startTestApp({ SMTP_URL: smtp.url, TRUST_PROXY: '127.0.0.1' });
    // Accounts registered with strangers' addresses, each asking for its code, all from one place.
    const from = { 'x-forwarded-for': '198.51.100.7' };
    const statuses: number[] = [];
    for (let i = 0; i <= CODES_SENT.address.limit; i++) {
      const stranger = await registerAndLogin(t.app, { email: `stranger${i}@example.com` });
      statuses.push((await call(t.app, 'POST', '/api/v1/auth/email', { token: stranger.access, body: {}, headers: from })).status);
    }
    expect(statuses).toEqual([...Array<number>(CODES_SENT.address.limit).fill(200), 429]);
    expect(smtp.mails.filter((mail) => /stranger\d+@example\.com/.test(mail.to.join()))).toHaveLength(CODES_SENT.address.limit);
    // Someone else is not held up by it.
    const elsewhere = await registerAndLogin(t.app);
    expect((await call(t.app, 'POST', '/api/v1/auth/email', { token: elsewhere.access, body: {}, headers: { 'x-forwarded-for': '198.51.100.8' } })).status).toBe(200);
  });

  it('refuses malformed codes with a field error', async () => {
    const user = await registerAndLogin(t.app);
    for (const otp of ['12345', '1234567', 'abcdef']) {
      const answer = await confirm(user.access, otp);
      expect(answer.status).toBe(400);
      expect(answer.body.field).toBe('otp');
    }
  });

  it('says so when the mail cannot be sent, and issues no code', async () => {
    await t.close();
    const log = capturedLog();
    t = await startTestApp({ SMTP_URL: 'smtp://127.0.0.1:1' }, { logger: log.logger });
    const user = await registerAndLogin(t.app);
    const answer = await sendCode(user.access);
    expect(answer.status).toBe(503);
    expect(answer.body.error).toMatch(/could not be sent/);
    expect(await t.db.selectFrom('email_otps').selectAll().execute()).toEqual([]);
    expect(log.entries().filter((entry) => entry.msg === 'the verification mail could not be sent')).toEqual([expect.objectContaining({ userId: user.id, err: expect.objectContaining({ message: expect.stringContaining('ECONNREFUSED') }) })]);
  });

  it('writes the mail to DATA_DIR/outbox when no SMTP_URL is set, and prints the code in the log (README)', async () => {
    await t.close();
    const log = capturedLog();
    t = await startTestApp({}, { logger: log.logger });
    const user = await registerAndLogin(t.app);
    expect((await sendCode(user.access)).status).toBe(200);
    const outbox = path.join(t.database.dataDir, 'outbox');
    const files = readdirSync(outbox).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const code = codeIn(readFileSync(path.join(outbox, files[0]!), 'utf8'));
    const printed = log.entries().filter((entry) => entry.msg.startsWith('no SMTP_URL'));
    expect(printed).toEqual([expect.objectContaining({ msg: `no SMTP_URL: verification code ${code} for ${user.email} written to the outbox`, userId: user.id, file: path.join(outbox, files[0]!) })]);
    expect((await confirm(user.access, code)).body.email_verified).toBe(true);
  });
});

describe('profile picture', () => {
  it('stores a square WebP served from an unguessable address, and removes the old one', async () => {
    const user = await registerAndLogin(t.app);
    const first = await upload(user.access, await pngOf(800, 600));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ avatar_verified: true, email_verified: false });
    const url = first.body.profile_picture as string;
    // The path alone: the app shows it on its own origin, whatever PUBLIC_URL is now or becomes.
    expect(url).toMatch(/^\/avatars\/[A-Za-z0-9_-]{32}\.webp$/);
    const served = await t.app.inject({ url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toContain('immutable');
    expect(served.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ width: 512, height: 512, format: 'webp' });
    expect((await profile(user.access)).profile_picture).toBe(url);
    // Its address exactly: nothing before the name, nothing after it, no other kind.
    const id = url.slice('/avatars/'.length, -'.webp'.length);
    for (const other of [`x${id}.webp`, `${id}.webp.bak`, `${id}.png`, 'nonsense']) {
      const answer = await t.app.inject({ url: `/avatars/${other}` });
      expect([answer.statusCode, answer.json()], other).toEqual([404, { error: 'picture not found' }]);
    }

    const second = await upload(user.access, await pngOf(300, 300));
    expect(second.body.profile_picture).not.toBe(url);
    expect((await t.app.inject({ url })).statusCode).toBe(404);
    expect(await t.db.selectFrom('avatars').select('id').execute()).toHaveLength(1);
  });

  it('takes a picture within 1% under 5 MB', async () => {
    const user = await registerAndLogin(t.app);
    const large = await noisyPngOf(1318, 1318);
    expect(large.length).toBeGreaterThan(AVATAR_MAX_BYTES * 0.99);
    expect(large.length).toBeLessThan(AVATAR_MAX_BYTES);
    expect((await upload(user.access, large)).status).toBe(200);
  });

  it('strips EXIF and GPS data', async () => {
    const user = await registerAndLogin(t.app);
    const photo = await jpegWithGps();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const answer = await upload(user.access, photo, 'photo.jpg', 'image/jpeg');
    expect(answer.status).toBe(200);
    const stored = await t.db.selectFrom('avatars').select('bytes').executeTakeFirstOrThrow();
    const meta = await sharp(Buffer.from(stored.bytes)).metadata();
    expect(meta.exif).toBeUndefined();
    expect(Buffer.from(stored.bytes).includes(Buffer.from('TestCam'))).toBe(false);
  });

  it('refuses everything that is not a safe image, storing nothing', async () => {
    const user = await registerAndLogin(t.app);
    const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3a3' } }).jpeg().toBuffer();
    const cases: Array<[string, Buffer, string, string]> = [
      ['text renamed .png', Buffer.from('hello, I am not a picture\n'.repeat(20)), 'avatar.png', 'image/png'],
      ['SVG with a script', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>'), 'avatar.svg', 'image/svg+xml'],
      ['truncated JPEG', jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'avatar.jpg', 'image/jpeg'],
    ];
    for (const [name, bytes, filename, type] of cases) {
      const answer = await upload(user.access, bytes, filename, type);
      expect(answer.status, name).toBe(400);
      expect(answer.body, name).toEqual({ error: 'Please select an image file.', field: 'image' });
    }
    // A decompression bomb, as far as a decoder knows: refused from its header.
    const bomb = await upload(user.access, await pngClaiming(20000, 20000), 'avatar.png', 'image/png');
    expect({ status: bomb.status, body: bomb.body }).toEqual({ status: 400, body: { error: 'The picture is larger than 40 megapixels; choose a smaller one.', field: 'image' } });
    const tooLarge = await upload(user.access, Buffer.alloc(6 * 1024 * 1024, 7), 'avatar.png', 'image/png');
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toEqual({ error: 'The picture is larger than 5 MB; choose a smaller one.', field: 'image' });
    const json = await call(t.app, 'PUT', '/api/v1/avatar', { token: user.access, body: { image: 'x' } });
    expect([json.status, json.body]).toEqual([400, { error: 'Please select an image file.', field: 'image' }]);
    const broken = await t.app.inject({ method: 'PUT', url: '/api/v1/avatar', headers: { authorization: `Bearer ${user.access}`, 'content-type': 'application/json' }, payload: '{"image":' });
    expect([broken.statusCode, broken.json()]).toEqual([400, { error: 'Please select an image file.', field: 'image' }]);
    // Past the server's 64 KB for a body read whole, however large: still no picture, not "larger than 5 MB".
    for (const size of [100 * 1024, 6 * 1024 * 1024]) {
      const large = await t.app.inject({ method: 'PUT', url: '/api/v1/avatar', headers: { authorization: `Bearer ${user.access}`, 'content-type': 'application/json' }, payload: JSON.stringify({ image: 'x'.repeat(size) }) });
      expect([large.statusCode, large.json()], `${size} bytes`).toEqual([400, { error: 'Please select an image file.', field: 'image' }]);
    }
    const noToken = await fetch(`${baseUrl}/api/v1/avatar`, { method: 'PUT', body: new FormData() });
    expect(noToken.status).toBe(401);
    expect(await t.db.selectFrom('avatars').select('id').execute()).toEqual([]);
    expect((await profile(user.access)).avatar_verified).toBe(false);
    // Still healthy after all that.
    expect((await upload(user.access, await pngOf(64, 64))).status).toBe(200);
  });
});

describe('an email changed while its code is judged', () => {
  it('is not proved by the code mailed to the old address', async () => {
    const user = await registerAndLogin(t.app);
    await sendCode(user.access);
    const code = codeIn(mailTo(user.email).raw);
    const { db, clock } = t.app.services;
    // An administrator changes the email (which deletes the old address's code) just as the code is found right.
    class RacingThrottle extends FailureThrottle {
      override async count(entries: Parameters<FailureThrottle['count']>[0]) {
        const attempt = await super.count(entries);
        const forgive = attempt.forgive.bind(attempt);
        attempt.forgive = async () => {
          await forgive();
          await db.updateTable('users').set({ email: 'changed@example.com', email_verified: 0, verified: 0 }).where('id', '=', user.id).execute();
          await db.deleteFrom('email_otps').where('user_id', '=', user.id).execute();
        };
        return attempt;
      }
    }
    const mailer = createMailer({ smtpUrl: smtp.url, from: 'Home Guard <guard@example.com>', dataDir: t.database.dataDir });
    const codes = new EmailCodes(db, new UsersRepository(db), new RacingThrottle(db, clock), mailer, t.app.log, clock);
    await expect(codes.confirm(user.id, code)).rejects.toThrow('The code has expired or was never sent');
    expect((await profile(user.access)).email_verified).toBe(false);
  });
});

describe('completing verification', () => {
  it('answers 409 until both steps are done, changing nothing; then verifies', async () => {
    const user = await registerAndLogin(t.app);
    const early = await call(t.app, 'POST', '/api/v1/auth/verify', { token: user.access, body: {} });
    expect(early.status).toBe(409);
    expect(await profile(user.access)).toMatchObject({ email_verified: false, avatar_verified: false, verified: false });

    await upload(user.access, await pngOf(64, 64));
    expect((await call(t.app, 'POST', '/api/v1/auth/verify', { token: user.access, body: {} })).status).toBe(409);
    await sendCode(user.access);
    await confirm(user.access, codeIn(mailTo(user.email).raw));
    const done = await call(t.app, 'POST', '/api/v1/auth/verify', { token: user.access });
    expect(done.status).toBe(200);
    expect(done.body, 'the answer is the status now, which the page shows').toMatchObject({ email_verified: true, avatar_verified: true, verified: true });
    expect(await profile(user.access)).toMatchObject({ email_verified: true, avatar_verified: true, verified: true });
  });

  it('does not mark the account verified when its email was changed between the check and the write', async () => {
    const user = await registerAndLogin(t.app);
    await t.db.updateTable('users').set({ email_verified: 1, avatar_verified: 1 }).where('id', '=', user.id).execute();
    const { db, sessions, throttle, notify, authenticatorApps, clock } = t.app.services;
    // An administrator changes the email (to be proved again) just as the account completes its verification.
    class RacingUsers extends UsersRepository {
      override async markVerified(id: string, now: number) {
        await db.updateTable('users').set({ email: 'changed@example.com', email_verified: 0 }).where('id', '=', id).execute();
        return super.markVerified(id, now);
      }
    }
    const accounts = new AccountsService(new RacingUsers(db), sessions, new ServiceSessionsRepository(db), throttle, authenticatorApps, t.app.services.signIn, { registration: 'open', log: t.app.log, notify }, clock);
    await expect(accounts.completeVerification(user.id)).rejects.toThrow('Verify your email and profile picture first');
    expect(await db.selectFrom('users').select(['verified', 'email_verified']).where('id', '=', user.id).executeTakeFirstOrThrow()).toEqual({ verified: 0, email_verified: 0 });
  });
});
