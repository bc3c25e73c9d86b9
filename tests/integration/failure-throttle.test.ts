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
