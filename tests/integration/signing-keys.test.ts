import { decodeProtectedHeader } from 'jose';
import type { KyselyPlugin } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { PUBLISH_AHEAD_MS, SigningKeys } from '../../server/keys/signing-keys';
import { failingQueries } from '../support/failing-queries';
import { call, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => t.close());

const jwks = async () => ((await call(t.app, 'GET', '/.well-known/jwks.json')).body.keys as Array<{ kid: string; alg: string }>).map((k) => k.kid);

/** The test database with a count of the queries run through it, to be read and reset. */
function countingQueries() {
  const counter = { queries: 0, db: t.db };
  const counting: KyselyPlugin = {
    transformQuery: (args) => {
      counter.queries += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  counter.db = t.db.withPlugin(counting);
  return counter;
}

it('rotation publishes a new key first, signs with it once every cached key set has it, and keeps old keys until they expire', async () => {
  let now = Date.now();
  // A second replica on the same database.
  const replica = await buildApp(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:8080', DATA_DIR: t.database.dataDir }), { db: t.db, clock: () => now, logger: false });
  const replicaJwks = async () => ((await call(replica, 'GET', '/.well-known/jwks.json')).body.keys as Array<{ kid: string }>).map((k) => k.kid);
  const user = await registerAndLogin(t.app);
  const oldKid = decodeProtectedHeader(user.access).kid!;
  const before = await jwks();
  expect(before).toHaveLength(2);
  expect(await replicaJwks()).toEqual(before);

  const rotated = await t.app.services.keys.rotate('ES256', 3600);
  await t.app.services.keys.rotate('RS256', 3600);
  // Published at once where it was rotated, and by the replica within its minute.
  const during = await jwks();
  expect(during).toHaveLength(4);
  expect(during).toEqual(expect.arrayContaining([...before, rotated.kid]));
  now += 61_000;
  expect(await replicaJwks()).toEqual(expect.arrayContaining(during));

  // Until then the old key goes on signing, on both replicas.
  const signIn = async (app: typeof replica) => decodeProtectedHeader((await call(app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password } })).body.access).kid;
  expect(await signIn(t.app)).toBe(oldKid);
  expect(await signIn(replica)).toBe(oldKid);
  t.advance(PUBLISH_AHEAD_MS);
  now += PUBLISH_AHEAD_MS;
  expect(await signIn(t.app)).toBe(rotated.kid);
  expect(await signIn(replica)).toBe(rotated.kid);
  // Tokens signed by the old key keep working, on both replicas.
  expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: user.access })).status).toBe(200);
  expect((await call(replica, 'GET', '/api/v1/auth/profile', { token: user.access })).status).toBe(200);

  t.advance(3601_000);
  const after = await jwks();
  expect(after).toHaveLength(2);
  expect(after).not.toContain(oldKid);
  await replica.close();
});

it('replaced at once, for keys that may have leaked: the old ones verify nothing more, and the app goes on with a refresh', async () => {
  const user = await registerAndLogin(t.app);
  const before = await jwks();
  const made = await t.app.services.keys.replaceAll();
  const after = await jwks();
  expect(after.sort()).toEqual(made.map(({ kid }) => kid).sort());
  expect(after.filter((kid) => before.includes(kid))).toEqual([]);
  expect(await t.db.selectFrom('signing_keys').select('kid').execute(), 'the private halves are gone').toHaveLength(2);
  // A token signed by an old key (one forged with a leaked copy) is refused at once.
  expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: user.access })).status).toBe(401);
  const refreshed = await call(t.app, 'POST', '/api/v1/auth/refresh', { token: user.refresh });
  expect(refreshed.status).toBe(200);
  expect(decodeProtectedHeader(refreshed.body.access).kid).toBe(made.find(({ alg }) => alg === 'ES256')!.kid);
  expect((await call(t.app, 'GET', '/api/v1/auth/profile', { token: refreshed.body.access })).status).toBe(200);
});

it('replaced at once by another process (the command line): a running server refuses the old keys\' tokens within a minute, those it checked before too', async () => {
  let now = Date.now();
  const running = await buildApp(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:8080', DATA_DIR: t.database.dataDir }), { db: t.db, clock: () => now, logger: false });
  const user = await registerAndLogin(t.app);
  // Checked once before the rotation: its claims are kept, the signature check saved next time.
  expect((await call(running, 'GET', '/api/v1/auth/profile', { token: user.access })).status).toBe(200);
  const made = await t.app.services.keys.replaceAll();
  now += 61_000;
  expect((await call(running, 'GET', '/api/v1/auth/profile', { token: user.access })).status).toBe(401);
  const signedIn = await call(running, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password } });
  expect(made.map(({ kid }) => kid)).toContain(decodeProtectedHeader(signedIn.body.access).kid);
  await running.close();
});

it('replaced at once by the command line after the running server\'s clock was set back: keys loaded "in the future" are reloaded all the same', async () => {
  const hours = 2 * 3_600_000;
  let now = Date.now() + hours; // the clock ran two hours fast after a power cut
  const running = await buildApp(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:8080', DATA_DIR: t.database.dataDir }), { db: t.db, clock: () => now, logger: false });
  const user = await registerAndLogin(t.app);
  const before = (await call(running, 'GET', '/.well-known/jwks.json')).body.keys as Array<{ kid: string }>;
  now -= hours; // NTP sets it right
  const made = await t.app.services.keys.replaceAll();
  now += 61_000;
  expect((await call(running, 'GET', '/api/v1/auth/profile', { token: user.access })).status).toBe(401);
  const after = ((await call(running, 'GET', '/.well-known/jwks.json')).body.keys as Array<{ kid: string }>).map((key) => key.kid);
  expect(after.sort()).toEqual(made.map(({ kid }) => kid).sort());
  expect(after.some((kid) => before.some((old) => old.kid === kid))).toBe(false);
  await running.close();
});

it('reloads keys for an unknown kid at most once a second, so made-up kids cannot drive database reads', async () => {
  let now = Date.now();
  const counted = countingQueries();
  const keys = new SigningKeys(counted.db, () => now);
  await keys.ensure();
  counted.queries = 0;
  now += 1_500;
  for (let i = 0; i < 20; i++) expect(await keys.verificationKey(`made-up-${i}`)).toBeUndefined();
  expect(counted.queries).toBe(1);
  now += 1_500;
  await keys.verificationKey('made-up-again');
  expect(counted.queries).toBe(2);
});

it('rotated twice within the lead, each key signs only once it has been published PUBLISH_AHEAD_MS', async () => {
  const user = await registerAndLogin(t.app);
  const signingKid = async () => decodeProtectedHeader((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password } })).body.access).kid;
  const first = decodeProtectedHeader(user.access).kid!;
  const second = await t.app.services.keys.rotate('ES256', 3600);
  t.advance(60_000);
  const third = await t.app.services.keys.rotate('ES256', 3600);
  expect(await signingKid(), 'the second key was published a minute ago only').toBe(first);
  t.advance(PUBLISH_AHEAD_MS - 60_000 + 1);
  expect(await signingKid()).toBe(second.kid);
  t.advance(60_000);
  expect(await signingKid()).toBe(third.kid);
});

it('a rotation that fails midway leaves the old key signing', async () => {
  const user = await registerAndLogin(t.app);
  const keys = new SigningKeys(t.db.withPlugin(failingQueries('InsertQueryNode', 'stopped midway')), () => t.app.services.clock());
  await expect(keys.rotate('ES256', 3600)).rejects.toThrow('stopped midway');
  t.advance(PUBLISH_AHEAD_MS + 1);
  const again = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password } });
  expect(again.status).toBe(200);
  expect(decodeProtectedHeader(again.body.access).kid).toBe(decodeProtectedHeader(user.access).kid);
  expect(await t.db.selectFrom('signing_keys').select('kid').where('alg', '=', 'ES256').where('retired_at', 'is', null).execute()).toHaveLength(1);
});

it('each time a key changes hands falls on its millisecond: the reloads, the new key signing, the old one unpublished, and its hints kept', async () => {
  const start = Date.now();
  let now = start;
  const counted = countingQueries();
  const hintsKeptMs = 7 * 24 * 3_600_000;
  const keys = new SigningKeys(counted.db, () => now, hintsKeptMs);
  await keys.ensure();
  const oldKid = (await keys.signingKey('ES256')).kid;
  const reads = async (read: () => Promise<unknown>) => {
    counted.queries = 0;
    await read();
    return counted.queries;
  };
  // A minute for known keys and signing, a second for an unknown kid.
  now = start + 60_000;
  expect(await reads(() => keys.publishedJwks())).toBe(0);
  expect(await reads(() => keys.signingKey('ES256'))).toBe(0);
  expect(await reads(() => keys.verificationKey(oldKid))).toBe(0);
  now += 1;
  expect(await reads(() => keys.verificationKey(oldKid))).toBe(1);
  now += 1_000;
  expect(await reads(() => keys.verificationKey('made-up'))).toBe(0);
  now += 1;
  expect(await reads(() => keys.verificationKey('made-up'))).toBe(1);

  // A key read afresh at each moment (a process started then).
  const at = (moment: number) => new SigningKeys(t.db, () => moment, hintsKeptMs);
  const { kid: newKid, signsFrom } = await keys.rotate('ES256', 3600);
  expect(signsFrom).toBe(now + PUBLISH_AHEAD_MS);
  // The new key signs from its millisecond, whether the keys were read before it or at it.
  let moment = signsFrom - 1;
  const running = new SigningKeys(t.db, () => moment, hintsKeptMs);
  expect((await running.signingKey('ES256')).kid).toBe(oldKid);
  moment = signsFrom;
  expect((await running.signingKey('ES256')).kid).toBe(newKid);
  expect((await at(signsFrom).signingKey('ES256')).kid).toBe(newKid);
  const unpublished = signsFrom + 3_600_000;
  const published = async (moment: number) => (await at(moment).publishedJwks()).map((jwk) => jwk.kid);
  expect(await published(unpublished - 1)).toContain(oldKid);
  expect(await published(unpublished)).not.toContain(oldKid);
  expect(await published(unpublished)).toContain(newKid);
  // Its ID tokens are still read as hints for hintsKeptMs after, and not in the JWKS.
  expect(await at(unpublished).verificationKey(oldKid)).toBeUndefined();
  expect(await at(unpublished + hintsKeptMs - 1).hintKey(oldKid)).toBeDefined();
  expect(await at(unpublished + hintsKeptMs).hintKey(oldKid)).toBeUndefined();
});

it('a key that cannot be stored at start-up stops the start: only another replica\'s key taken first is passed over', async () => {
  await t.db.deleteFrom('signing_keys').execute();
  await expect(new SigningKeys(t.db.withPlugin(failingQueries('InsertQueryNode', 'disk full')), () => t.app.services.clock()).ensure()).rejects.toThrow('disk full');
  expect(await t.db.selectFrom('signing_keys').select('kid').execute()).toEqual([]);
});

it('replicas starting at once on a database with no keys make one key per algorithm, and all sign with it', async () => {
  await t.db.deleteFrom('signing_keys').execute();
  const replicas = Array.from({ length: 3 }, () => new SigningKeys(t.db, () => t.app.services.clock()));
  await Promise.all(replicas.map((keys) => keys.ensure()));
  const rows = await t.db.selectFrom('signing_keys').select(['kid', 'alg']).execute();
  expect(rows.map(({ alg }) => alg).sort()).toEqual(['ES256', 'RS256']);
  for (const keys of replicas) {
    for (const { kid, alg } of rows) expect((await keys.signingKey(alg as 'ES256' | 'RS256')).kid).toBe(kid);
  }
});
