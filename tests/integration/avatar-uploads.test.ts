import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_UPLOADS_AT_ONCE, MAX_UPLOADS_PER_ACCOUNT, uploadsUnderWay } from '../../server/avatars/upload';
import { pngOf } from '../support/images';
import { call, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';
import { lockWaits, testDatabaseKind } from '../support/test-database';

let t: TestApp;
let user: Awaited<ReturnType<typeof registerAndLogin>>;
let logged: Array<{ level: number; msg: string; reason?: string }>;
beforeEach(async () => {
  logged = [];
  t = await startTestApp({}, { logger: { level: 'info', stream: { write: (line: string) => logged.push(JSON.parse(line)) } } });
  user = await registerAndLogin(t.app);
});
afterEach(async () => t.close());

const BOUNDARY = 'hg-boundary-7d3f';
const partHead = (name: string, filename?: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"\r\nContent-Type: image/png` : ''}\r\n\r\n`;

/** PUT /api/v1/avatar with a multipart body written by hand, as a broken or hostile client would send it. */
const sendRaw = (payload: Buffer | string | NodeJS.ReadableStream, contentType = `multipart/form-data; boundary=${BOUNDARY}`, access = user.access) =>
  t.app.inject({ method: 'PUT', url: '/api/v1/avatar', headers: { authorization: `Bearer ${access}`, 'content-type': contentType }, payload });

const pictureBody = (bytes: Buffer) => Buffer.concat([Buffer.from(partHead('image', 'avatar.png')), bytes, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
const upload = async (bytes: Buffer, access = user.access) => {
  const answer = await sendRaw(pictureBody(bytes), undefined, access);
  return { status: answer.statusCode, body: answer.json() as Record<string, unknown> };
};

async function nothingStored() {
  expect(await t.db.selectFrom('avatars').select('id').execute()).toEqual([]);
  expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: user.access })).body).toMatchObject({ avatar_verified: false, profile_picture: null });
}

describe('a malformed upload is refused with 400 and a sentence, storing nothing', () => {
  it('refuses a multipart body that is not whole: no boundary, no closing boundary, cut off in a part header', async () => {
    const png = await pngOf(32, 32);
    const broken: Array<[string, Buffer | string, string?]> = [
      ['no boundary in the Content-Type', 'hello', 'multipart/form-data'],
      ['no closing boundary', Buffer.concat([Buffer.from(partHead('image', 'avatar.png')), png])],
      ['cut off inside a part header', `--${BOUNDARY}\r\nContent-Disposition: form-da`],
    ];
    for (const [name, payload, contentType] of broken) {
      const answer = await sendRaw(payload, contentType);
      expect([answer.statusCode, answer.json()], name).toEqual([400, { error: 'The upload is not a complete multipart/form-data body; send the picture as the image field of a form', field: 'image' }]);
    }
    await nothingStored();
    expect(logged.filter((line) => line.level >= 50), 'no error, no stack').toEqual([]);
    expect(logged.filter((line) => line.msg === 'avatar upload refused').map((line) => line.reason)).toEqual([
      'Multipart: Boundary not found',
      expect.stringMatching(/unexpected end of multipart data/i),
      expect.stringMatching(/unexpected end of multipart data/i),
    ]);
  });

  it('says that there are too many fields, not that a tiny picture is too large', async () => {
    const fields = ['a', 'b', 'c', 'd', 'e'].map((name) => `${partHead(name)}x\r\n`).join('');
    const payload = Buffer.concat([Buffer.from(fields), Buffer.from(partHead('image', 'avatar.png')), await pngOf(8, 8), Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
    const answer = await sendRaw(payload);
    expect([answer.statusCode, answer.json()]).toEqual([400, { error: 'The upload has too many fields or files; send one picture, as the image field', field: 'image' }]);
    await nothingStored();
    expect((await upload(await pngOf(8, 8))).status, 'the picture alone is taken').toBe(200);
  });

  it('refuses any part besides the picture, before or after it, storing nothing', async () => {
    const png = await pngOf(8, 8);
    const picturePart = Buffer.concat([Buffer.from(partHead('image', 'avatar.png')), png, Buffer.from('\r\n')]);
    const end = Buffer.from(`--${BOUNDARY}--\r\n`);
    const field = Buffer.from(`${partHead('caption')}x\r\n`);
    const cases: Array<[string, Buffer]> = [
      ['a field before the picture', Buffer.concat([field, picturePart, end])],
      ['a field after the picture', Buffer.concat([picturePart, field, end])],
      ['a second picture', Buffer.concat([picturePart, picturePart, end])],
    ];
    for (const [name, payload] of cases) {
      const answer = await sendRaw(payload);
      expect([answer.statusCode, answer.json()], name).toEqual([400, { error: 'The upload has too many fields or files; send one picture, as the image field', field: 'image' }]);
    }
    await nothingStored();
  });

  it('of an account an administrator deleted meanwhile is refused as its token is, not with a 500', async () => {
    const other = await registerAndLogin(t.app);
    await t.db.deleteFrom('users').where('id', '=', user.id).execute();
    await expect(t.app.services.avatars.replace(user.id, await pngOf(8, 8))).rejects.toMatchObject({ statusCode: 401, message: 'The token is invalid or has expired' });
    expect(await t.db.selectFrom('avatars').select('id').execute()).toEqual([]);
    expect((await upload(await pngOf(8, 8), other.access)).status, 'another account uploads as before').toBe(200);
  });

  it('answers the image field sent as text, not as a file, with the spec\'s message', async () => {
    const answer = await sendRaw(`${partHead('image')}not a picture\r\n--${BOUNDARY}--\r\n`);
    expect([answer.statusCode, answer.json()]).toEqual([400, { error: 'Please select an image file.', field: 'image' }]);
    await nothingStored();
  });
});

describe('uploads at once', () => {
  /**
   * Sends uploads at once. On PostgreSQL another transaction holds the avatars table against
   * writes until each upload's transaction waits for it or for another upload's, so all of them
   * are inside their transactions before any writes (SQLite runs one transaction at a time).
   */
  async function atOnce<T>(count: number, send: () => Promise<T>): Promise<T[]> {
    if (testDatabaseKind() !== 'postgres') return Promise.all(Array.from({ length: count }, send));
    const { answers } = await t.db.transaction().execute(async (tx) => {
      await sql`lock table avatars in share mode`.execute(tx);
      const sent = Promise.all(Array.from({ length: count }, send));
      await expect.poll(() => lockWaits(t.db), { timeout: 10_000 }).toBe(count);
      return { answers: sent };
    });
    return answers;
  }

  it('keep one picture: the one the profile shows; the others are deleted and no longer served', async () => {
    const png = await pngOf(64, 64);
    const answers = await atOnce(MAX_UPLOADS_PER_ACCOUNT, () => upload(png));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const stored = await t.db.selectFrom('avatars').select('id').where('user_id', '=', user.id).execute();
    expect(stored).toHaveLength(1);
    const shown = (await call(t.app, 'GET', '/api/v1/auth/profile', { token: user.access })).body.profile_picture as string;
    expect(shown).toBe(`/avatars/${stored[0]!.id}.webp`);
    const served = await Promise.all(answers.map(async (answer) => (await t.app.inject({ url: answer.body.profile_picture as string })).statusCode));
    expect(served.sort()).toEqual([200, 404]);
  });
});

describe('many uploads at once', () => {
  it(`take ${MAX_UPLOADS_AT_ONCE} at a time, from every account together; the rest are told to come back`, async () => {
    const large = pictureBody(await pngOf(2400, 2400));
    const people = [user, ...(await Promise.all(Array.from({ length: (MAX_UPLOADS_AT_ONCE + 6) / MAX_UPLOADS_PER_ACCOUNT - 1 }, () => registerAndLogin(t.app))))];
    const answers = await Promise.all(people.flatMap((person) => Array.from({ length: MAX_UPLOADS_PER_ACCOUNT }, () => sendRaw(large, undefined, person.access))));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(MAX_UPLOADS_AT_ONCE);
    const busy = answers.filter((answer) => answer.statusCode === 503);
    expect(busy).toHaveLength(6);
    expect(busy[0]!.json()).toEqual({ error: 'Many pictures are being uploaded right now; try again in a moment' });
    expect(busy[0]!.headers['retry-after']).toBe('5');
    expect(logged.filter((line) => line.level >= 50), 'no error, no stack').toEqual([]);
    // Their turn over, the next upload is taken.
    expect((await upload(await pngOf(16, 16))).status).toBe(200);
  });

  it(`take ${MAX_UPLOADS_PER_ACCOUNT} of one account's at a time: one person cannot keep everyone else's out`, async () => {
    const other = await registerAndLogin(t.app);
    // Uploads still being sent, each holding its place until its body ends.
    const held = Array.from({ length: MAX_UPLOADS_PER_ACCOUNT }, () => new PassThrough());
    const heldAnswers = held.map((body) => {
      body.write(partHead('image', 'avatar.png'));
      return sendRaw(body);
    });
    await expect.poll(() => uploadsUnderWay(user.id)).toBe(MAX_UPLOADS_PER_ACCOUNT);

    const refused = await sendRaw(pictureBody(await pngOf(16, 16)));
    expect([refused.statusCode, refused.json()]).toEqual([429, { error: 'Your other pictures are still being uploaded; try again once they are done' }]);
    expect(refused.headers['retry-after']).toBe('5');
    expect((await upload(await pngOf(16, 16), other.access)).status, "another account's upload meanwhile").toBe(200);

    const png = await pngOf(16, 16);
    for (const [index, body] of held.entries()) {
      body.end(Buffer.concat([png, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]));
      expect((await heldAnswers[index]!).statusCode).toBe(200);
      expect(uploadsUnderWay(user.id), 'the account holds a place for each upload still being sent').toBe(held.length - index - 1);
    }
    expect((await upload(png)).status, 'once they are done').toBe(200);
    expect(logged.filter((line) => line.level >= 50), 'no error, no stack').toEqual([]);
  });
});
