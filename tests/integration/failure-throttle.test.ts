import { afterEach, beforeEach, expect, it } from 'vitest';
import { type CountedAttempt, FailureThrottle, MAX_WAITS } from '../../server/throttle/failure-throttle';
import { JudgingTurns } from '../../server/throttle/judging-turns';
import { holdTheNextCallBeforeItRuns } from '../support/hold-a-call';
import { startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => t.close());

const RULE = { limit: 100, windowSeconds: 60 };

/** A moment one side waits for and the other gives. */
const signal = () => {
  let give = () => {};
  const given = new Promise<void>((resolve) => (give = resolve));
  return { give, given };
};

/** The judging turns, telling when an attempt has started to wait (its turn is then owed to it). */
class WatchedTurns extends JudgingTurns {
  waits = 0;
  private readonly watchers: Array<{ waits: number; give: () => void }> = [];

  override wait(key: string): Promise<void> {
    const turn = super.wait(key);
    this.waits += 1;
    for (const watcher of this.watchers.filter(({ waits }) => waits <= this.waits)) watcher.give();
    return turn;
  }

  /** Once `waits` attempts in all have started to wait. */
  waited(waits: number): Promise<void> {
    const { give, given } = signal();
    if (this.waits >= waits) give();
    else this.watchers.push({ waits, give });
    return given;
  }
}

/** What a judgement's attempt came to: its judgement's answer, or the throttle's status. */
const outcome = (judging: Promise<string>) => judging.catch((error: { statusCode: number }) => error.statusCode);

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

it('checks each key against its own failures and its own rule', async () => {
  const throttle = new FailureThrottle(t.db, () => t.app.services.clock());
  const strict = { limit: 1, windowSeconds: 60 };
  const loose = { limit: 3, windowSeconds: 60 };
  const check = () => throttle.check([['strict', strict], ['loose', loose]]).then(() => 'let in', (error: { statusCode: number }) => error.statusCode);
  // Two failures on the loose key: under its limit, and none on the strict one.
  await throttle.recordFailure([['loose', loose]]);
  await throttle.recordFailure([['loose', loose]]);
  expect(await check()).toBe('let in');
  await throttle.recordFailure([['loose', loose]]);
  expect(await check()).toBe(429);
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

it('has an attempt past the limit only with one being judged wait for it, and lets it in when that one is taken back', async () => {
  const turns = new WatchedTurns();
  const throttle = new FailureThrottle(t.db, () => t.app.services.clock(), turns);
  const rule = { limit: 1, windowSeconds: 60 };
  const [judging, hashed] = [signal(), signal()];
  const judged: string[] = [];
  const first = throttle.judge([['account', rule]], async (attempt) => {
    judging.give();
    await hashed.given;
    await attempt.succeed(['account']);
    judged.push('first');
    return 'first';
  }, () => judged.push('first refused'));
  await judging.given;
  const second = throttle.judge([['account', rule]], async (attempt) => {
    await attempt.succeed(['account']);
    judged.push('second');
    return 'second';
  }, () => judged.push('second refused'));
  await turns.waited(1);
  expect(await t.db.selectFrom('throttle').select(['failures', 'judging']).where('key', '=', 'account').execute(), 'the waiting one took its count back').toEqual([{ failures: 1, judging: 1 }]);
  hashed.give();
  expect([await first, await second]).toEqual(['first', 'second']);
  expect(judged).toEqual(['first', 'second']);
  expect(turns.waits).toBe(1);
  expect(await t.db.selectFrom('throttle').selectAll().where('key', '=', 'account').execute()).toEqual([]);
});

it('counts again an attempt over on keys being judged, here and on another replica, once those judgements are taken back while it takes its count back', async () => {
  const here = new FailureThrottle(t.db, () => t.app.services.clock());
  const otherReplica = new FailureThrottle(t.db, () => t.app.services.clock());
  const rule = { limit: 1, windowSeconds: 60 };
  const [judgedHere, judgedThere, forgiven] = [signal(), signal(), signal()];
  const judgedUntilForgiven = (judged: { give: () => void }, name: string) => async (attempt: CountedAttempt) => {
    judged.give();
    await forgiven.given;
    await attempt.forgive();
    return name;
  };
  const onAddress = here.judge([['address', rule]], judgedUntilForgiven(judgedHere, 'address'), () => {});
  const onAccount = otherReplica.judge([['account', rule]], judgedUntilForgiven(judgedThere, 'account'), () => {});
  await Promise.all([judgedHere.given, judgedThere.given]);
  // Over on both keys, one of them judged here: while it takes its count back, both are taken back.
  const takingBack = holdTheNextCallBeforeItRuns(FailureThrottle.prototype, 'uncount');
  const third = here.judge([['address', rule], ['account', rule]], async (attempt) => {
    await attempt.succeed([]);
    return 'third';
  }, () => {});
  await takingBack.held;
  forgiven.give();
  expect([await onAddress, await onAccount]).toEqual(['address', 'account']);
  takingBack.release();
  expect(await outcome(third), 'nothing is being judged any more: counted again, it is within the limits').toBe('third');
  expect(await t.db.selectFrom('throttle').selectAll().execute()).toEqual([]);
});

it('refuses the attempts waiting for a judgement that is a failure, each refused one waking the next, and one refused at once wakes none', async () => {
  const turns = new WatchedTurns();
  const throttle = new FailureThrottle(t.db, () => t.app.services.clock(), turns);
  const [rule, usedUpAddress] = [{ limit: 1, windowSeconds: 60 }, { limit: 2, windowSeconds: 60 }];
  const [judging, hashed] = [signal(), signal()];
  const refused: string[] = [];
  const wrongGuess = throttle.judge([['account', rule]], async () => {
    judging.give();
    await hashed.given;
    return 'wrong password'; // a failure: its count stands
  }, () => refused.push('wrong guess'));
  await judging.given;
  // One after the other, so they queue in this order: started together, on PostgreSQL's pool the third could queue first.
  const waiting: Array<Promise<string>> = [];
  for (const [index, name] of ['second', 'third'].entries()) {
    waiting.push(throttle.judge([['account', rule]], async () => name, () => refused.push(name)));
    await turns.waited(index + 1);
  }

  // Past the limit of a key nobody is judging: refused at once, the two waiting are left waiting.
  await throttle.recordFailure([['address', usedUpAddress]]);
  await throttle.recordFailure([['address', usedUpAddress]]);
  expect(await outcome(throttle.judge([['account', { limit: 5, windowSeconds: 60 }], ['address', usedUpAddress]], async () => 'in', () => refused.push('other address')))).toBe(429);

  hashed.give();
  expect(await wrongGuess).toBe('wrong password');
  expect(await Promise.all(waiting.map(outcome))).toEqual([429, 429]);
  // In turn: had the refusal at once woken the second, it would have waited again, behind the third.
  expect(refused).toEqual(['other address', 'second', 'third']);
  expect(await t.db.selectFrom('throttle').select(['failures', 'judging']).where('key', '=', 'account').execute(), 'only the wrong guess is counted, and none as being judged').toEqual([{ failures: 1, judging: 0 }]);
});

it(`refuses an attempt kept waiting by judgements that follow one another after ${MAX_WAITS} waits, not holding it for ever`, async () => {
  const turns = new WatchedTurns();
  const throttle = new FailureThrottle(t.db, () => t.app.services.clock(), turns);
  const rule = { limit: 1, windowSeconds: 60 };
  const LINKS = MAX_WAITS + 5;
  let settled = false;
  const waiterSettled = signal();
  const links: Array<Promise<string>> = [];
  // Each judgement is taken back, but lets the next one in first: the waiting attempt, woken,
  // finds the key busy again.
  const link = (at: number, started: () => void) =>
    throttle.judge([['account', rule]], async (attempt) => {
      started();
      await Promise.race([turns.waited(at + 1), waiterSettled.given]);
      await attempt.forgive();
      if (at + 1 < LINKS && !settled) {
        const next = signal();
        links.push(link(at + 1, next.give));
        await next.given;
      }
      return `link ${at}`;
    }, () => undefined);
  const firstStarted = signal();
  links.push(link(0, firstStarted.give));
  await firstStarted.given;
  const waiter = outcome(throttle.judge([['account', rule]], async () => 'in', () => undefined)).finally(() => {
    settled = true;
    waiterSettled.give();
  });
  expect(await waiter).toBe(429);
  expect(turns.waits).toBe(MAX_WAITS);
  await Promise.all(links);
  expect(links).toHaveLength(MAX_WAITS + 1);
});

it("leaves another replica's judgement counted as being judged when a count that is not judged is refused", async () => {
  const [here, there] = [new FailureThrottle(t.db, () => t.app.services.clock()), new FailureThrottle(t.db, () => t.app.services.clock())];
  const rule = { limit: 1, windowSeconds: 60 };
  const [judging, hashed] = [signal(), signal()];
  const elsewhere = there.judge([['account', rule]], async () => {
    judging.give();
    await hashed.given;
    return 'wrong password';
  }, () => undefined);
  await judging.given;
  expect(await here.count([['account', rule]]).then(() => 'counted', (error: { statusCode: number }) => error.statusCode)).toBe(429);
  expect(await t.db.selectFrom('throttle').select(['failures', 'judging']).where('key', '=', 'account').execute()).toEqual([{ failures: 1, judging: 1 }]);
  hashed.give();
  await elsewhere;
  expect(await t.db.selectFrom('throttle').select(['failures', 'judging']).where('key', '=', 'account').execute()).toEqual([{ failures: 1, judging: 0 }]);
});
