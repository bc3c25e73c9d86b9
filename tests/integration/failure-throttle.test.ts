import { afterEach, beforeEach, expect, it } from 'vitest';
import { FailureThrottle } from '../../server/throttle/failure-throttle';
import { startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => t.close());

const RULE = { limit: 100, windowSeconds: 60 };

it('takes back every attempt taken back at once: none is left counted', async () => {
  const throttle = new FailureThrottle(t.db, () => t.app.services.clock());
  for (let round = 0; round < 5; round++) {
    const attempts = await Promise.all(Array.from({ length: 12 }, () => throttle.count([['burst', RULE]])));
    await Promise.all(attempts.map((attempt) => attempt.forgive()));
    expect(await t.db.selectFrom('throttle').selectAll().where('key', '=', 'burst').execute(), `round ${round}`).toEqual([]);
  }
});

it('checks a window opened while the clock ran fast as ended, as counting does, and one that is on until its last millisecond', async () => {
  const throttle = new FailureThrottle(t.db, () => t.app.services.clock());
  const rule = { limit: 2, windowSeconds: 60 };
  const check = () => throttle.check([['second-steps', rule]]).then(() => 'let in', (error: { statusCode: number }) => error.statusCode);
  t.advance(3 * 3_600_000); // three hours fast
  await throttle.recordFailure([['second-steps', rule]]);
  await throttle.recordFailure([['second-steps', rule]]);
  expect(await check()).toBe(429);
  t.advance(-3 * 3_600_000); // set right
  expect(await check()).toBe('let in');
  await throttle.recordFailure([['second-steps', rule]]);
  await throttle.recordFailure([['second-steps', rule]]);
  t.advance(60_000 - 1);
  expect(await check()).toBe(429);
  t.advance(1);
  expect(await check()).toBe('let in');
});

it('takes failures recorded after the fact for judged ones: a success that forgets the key forgets them', async () => {
  const throttle = new FailureThrottle(t.db, () => t.app.services.clock());
  await throttle.recordFailure([['recorded', RULE]]);
  await throttle.recordFailure([['recorded', RULE]]);
  await throttle.judge([['recorded', RULE]], (attempt) => attempt.succeed(['recorded']), () => undefined);
  expect(await t.db.selectFrom('throttle').selectAll().where('key', '=', 'recorded').execute()).toEqual([]);
});

it("keeps the failures another replica is still judging when the owner's sign-in succeeds", async () => {
  // Two processes on one database, each with its own record of what it is judging.
  const [here, there] = [new FailureThrottle(t.db, () => t.app.services.clock()), new FailureThrottle(t.db, () => t.app.services.clock())];
  const rule = { limit: 5, windowSeconds: 60 };
  let [answer, allCounted] = [() => {}, () => {}];
  const [hashing, counted] = [new Promise<void>((resolve) => (answer = resolve)), new Promise<void>((resolve) => (allCounted = resolve))];
  let started = 0;
  // Three wrong guesses at the other replica, judged (hashed) while the owner signs in here.
  const guesses = Array.from({ length: 3 }, () =>
    there.judge([['account', rule]], async () => {
      if (++started === 3) allCounted();
      await hashing;
    }, () => undefined),
  );
  await counted;
  await here.judge([['account', rule]], (attempt) => attempt.succeed(['account']), () => undefined);
  answer();
  await Promise.all(guesses);
  expect(await t.db.selectFrom('throttle').select(['failures', 'judging']).where('key', '=', 'account').execute()).toEqual([{ failures: 3, judging: 0 }]);

  // And with none being judged elsewhere, a success forgets them all.
  await here.judge([['account', rule]], (attempt) => attempt.succeed(['account']), () => undefined);
  expect(await t.db.selectFrom('throttle').selectAll().where('key', '=', 'account').execute()).toEqual([]);
});

it('lets an attempt past the limit in when the judgement it was over with ends while it takes its count back', async () => {
  // Holds the next taking back until released: the other judgement ends exactly then.
  /** A moment one side waits for and the other gives. */
  const signal = () => {
    let give = () => {};
    const given = new Promise<void>((resolve) => (give = resolve));
    return { give, given };
  };
  const [judging, hashed, takingBack, released] = [signal(), signal(), signal(), signal()];
  class HeldThrottle extends FailureThrottle {
    holding = false;
    override async uncount(key: string, windowStart: number): Promise<void> {
      if (this.holding) {
        this.holding = false;
        takingBack.give();
        await released.given;
      }
      return super.uncount(key, windowStart);
    }
  }
  const throttle = new HeldThrottle(t.db, () => t.app.services.clock());
  const rule = { limit: 1, windowSeconds: 60 };
  const refusals: string[] = [];

  const first = throttle.judge([['account', rule]], async (attempt) => {
    judging.give();
    await hashed.given;
    await attempt.succeed(['account']);
    return 'first';
  }, () => refusals.push('first'));
  await judging.given;
  throttle.holding = true;
  const second = throttle.judge([['account', rule]], async (attempt) => {
    await attempt.succeed(['account']);
    return 'second';
  }, () => refusals.push('second'));
  await takingBack.given;
  hashed.give();
  expect(await first).toBe('first');
  released.give();
  expect(await second, 'the first was taken back: nothing stands in the way').toBe('second');
  expect(refusals).toEqual([]);
  expect(await t.db.selectFrom('throttle').selectAll().where('key', '=', 'account').execute()).toEqual([]);
});
