import { sql } from 'kysely';
import type { Database } from '../db/database';
import { changedRows, firstRow, preparedQuery, preparedQueryPerCount } from '../db/prepared-query';
import { AppError } from '../errors';
import { JudgingTurns } from './judging-turns';

export type ThrottleRule = { limit: number; windowSeconds: number };

/** How many times an attempt waits for others being judged before it is refused all the same. */
export const MAX_WAITS = 20;

/** Whether an error is the throttle's refusal (429), not a failure to read it. */
export const isThrottled = (error: unknown): error is AppError => error instanceof AppError && error.statusCode === 429;

/** Turns the throttle's 429 into a feature's own words, with the same wait; anything else passes through. */
export function rethrowAs(refusal: (retryAfterSeconds: number) => AppError) {
  return (error: unknown): never => {
    throw isThrottled(error) ? refusal(Number(error.headers['Retry-After'])) : error;
  };
}

/**
 * Counts failures per key in fixed windows, in the database so every replica shares them.
 * Only failures stay counted (an attempt that turns out well is taken back): successful traffic is
 * never slowed.
 */
export class FailureThrottle {
  constructor(
    private readonly db: Database,
    private readonly clock: () => number,
    private readonly turns = new JudgingTurns(),
  ) {}

  /** Throws 429 when any key has used up its failures in the current window (client authentication, second steps, mailed codes). */
  async check(entries: ReadonlyArray<[key: string, rule: ThrottleRule]>): Promise<void> {
    const now = this.clock();
    const keys = entries.map(([key]) => key);
    const { rows } = await throttleRows(keys.length)(this.db, Object.fromEntries(keys.entries()));
    for (const [key, rule] of entries) {
      const row = rows.find((r) => r.key === key);
      const windowEnd = row ? row.window_start + rule.windowSeconds * 1000 : 0;
      if (row && row.window_start <= now && windowEnd > now && row.failures >= rule.limit) {
        throw AppError.tooManyAttempts((windowEnd - now) / 1000);
      }
    }
  }

  /**
   * Judges an attempt counted against every key beforehand; throws 429 when that count puts a key
   * past its limit. A check before and a count after the judgement let a burst of parallel guesses
   * all pass a check none of them had failed yet (each guess then cost an argon2 hash, not a turn of
   * the window). An attempt past the limit only because others are still being judged here waits
   * for them, as they may be taken back: parallel sign-ins that succeed are not refused.
   * `onRefused` hears of a 429 (for the log fail2ban reads).
   */
  async judge<T>(entries: ReadonlyArray<[key: string, rule: ThrottleRule]>, judgement: (attempt: CountedAttempt) => Promise<T>, onRefused: () => void): Promise<T> {
    const attempt = await this.count(entries, true).catch((error: unknown) => {
      if (isThrottled(error)) onRefused();
      throw error;
    });
    const keys = entries.map(([key]) => key);
    this.turns.start(keys);
    try {
      return await judgement(attempt);
    } finally {
      // A count left standing (the database failing here) only keeps a success from forgetting one
      // failure more, until the window ends: not worth turning a judgement into an error.
      await attempt.judged().catch(() => undefined);
      this.turns.end(keys);
    }
  }

  /**
   * Counts an attempt against every key, or throws 429 (counting nothing) when a key is past its
   * limit with it. `judging`: the attempt is also counted as being judged until `judged()`.
   */
  async count(entries: ReadonlyArray<[key: string, rule: ThrottleRule]>, judging = false): Promise<CountedAttempt> {
    for (let round = 0; ; round++) {
      try {
        const now = this.clock();
        const counted: Array<{ key: string; rule: ThrottleRule; failures: number; window_start: number }> = [];
        for (const [key, rule] of entries) counted.push({ key, rule, ...(await this.add(key, rule, now, judging)) });
        const over = counted.filter(({ rule, failures }) => failures > rule.limit);
        if (over.length === 0) return new CountedAttempt(this, counted, judging);
        const busyWhenCounted = over.some(({ key }) => this.turns.judging(key) > 0);
        for (const { key, window_start } of counted) {
          await this.uncount(key, window_start);
          if (judging) await this.endJudging(key, window_start);
        }
        const busy = over.find(({ key }) => this.turns.judging(key) > 0);
        if ((!busy && !busyWhenCounted) || round === MAX_WAITS) {
          const { rule, window_start } = over[0]!;
          throw AppError.tooManyAttempts((window_start + rule.windowSeconds * 1000 - now) / 1000);
        }
        // Those it was over with were judged while it took its count back: their ending woke
        // nobody, and their counts may be gone. It tries again at once.
        if (busy) await this.turns.wait(busy.key);
      } catch (error) {
        // Tried again and not going on: whoever waits behind gets the turn (one it was not given
        // only sends a waiter back to wait).
        if (round > 0) for (const [key] of entries) this.turns.passOn(key);
        throw error;
      }
    }
  }

  /** Adds one failure to each key, starting a new window where the old one has ended; answers each key's failures in its window. */
  async recordFailure(entries: ReadonlyArray<[key: string, rule: ThrottleRule]>): Promise<number[]> {
    const now = this.clock();
    const failures: number[] = [];
    for (const [key, rule] of entries) failures.push((await this.add(key, rule, now, false)).failures);
    return failures;
  }

  /** One atomic upsert, so concurrent failures on several replicas all count; answers the window. */
  private async add(key: string, rule: ThrottleRule, now: number, judging: boolean): Promise<{ failures: number; window_start: number }> {
    const { rows } = await addFailure(this.db, { key, now, windowStartedBefore: now - rule.windowSeconds * 1000, judging: judging ? 1 : 0 });
    return rows[0]!;
  }

  /** An attempt counted as being judged in this window is judged (a window begun since counts only newer ones). */
  async endJudging(key: string, windowStart: number): Promise<void> {
    await judgedOne(this.db, { key, windowStart });
  }

  /**
   * Takes one attempt back from a key, unless its window has ended since (a new one holds only
   * newer failures). A row left with none is deleted, as the usual success from a quiet address
   * leaves it: one statement then. Otherwise the decrement is unconditional: two takings back of a
   * row at 2 that each found it above 1 must both land (on PostgreSQL the second waits for the
   * first, and a "still above 1" condition then skipped it, leaving a failure nobody made).
   */
  async uncount(key: string, windowStart: number): Promise<void> {
    if (changedRows(await deleteSpentRow(this.db, { key, windowStart, atMost: 1 })) > 0) return;
    const left = firstRow(await takeOneBack(this.db, { key, windowStart }));
    if (left && left.failures <= 0) await deleteSpentRow(this.db, { key, windowStart, atMost: 0 });
  }

  /**
   * Forgets a key's failures after a success being judged, but not the other attempts still being
   * judged, here or on another replica: deleting those too would leave their own taking back with
   * no row to take from, and let a burst running beside a success past the limit.
   */
  async clear(key: string): Promise<void> {
    if (changedRows(await forgetKeyNoneJudging(this.db, { key })) > 0) return;
    await keepFailuresBeingJudged(this.db, { key });
  }

  async reset(key: string): Promise<void> {
    await forgetKey(this.db, { key });
  }
}

/** An attempt counted by `FailureThrottle.count`, to be taken back if it was no failure. */
export class CountedAttempt {
  constructor(
    private readonly throttle: FailureThrottle,
    private readonly counted: ReadonlyArray<{ key: string; window_start: number }>,
    private readonly judging: boolean,
  ) {}

  /** Its judgement is over, whatever it was (`FailureThrottle.judge`). */
  async judged(): Promise<void> {
    if (this.judging) for (const { key, window_start } of this.counted) await this.throttle.endJudging(key, window_start);
  }

  /** It was no failure (the right password, say, for an account that cannot sign in): uncounted everywhere. */
  async forgive(): Promise<void> {
    for (const { key, window_start } of this.counted) await this.throttle.uncount(key, window_start);
  }

  /** It succeeded: the `cleared` keys forget their earlier failures too (the owner is back), the other keys only this attempt. */
  async succeed(cleared: readonly string[]): Promise<void> {
    for (const { key, window_start } of this.counted) await (cleared.includes(key) ? this.throttle.clear(key) : this.throttle.uncount(key, window_start));
  }
}

// Every sign-in and client authentication runs these: compiled once (see preparedQuery). A window
// that starts after now was opened while the clock ran fast: it has ended, or a minute's lockout
// would last as long as the clock was wrong.
const addFailure = preparedQuery((db, value) => {
  const [now, windowStartedBefore, judging] = [value<number>('now'), value<number>('windowStartedBefore'), sql<number>`cast(${value<number>('judging')} as integer)`];
  const windowEnded = sql<boolean>`throttle.window_start <= ${windowStartedBefore} or throttle.window_start > ${now}`;
  return db
    .insertInto('throttle')
    .values({ key: value<string>('key'), window_start: now, failures: 1, judging })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failures: sql`case when ${windowEnded} then 1 else throttle.failures + 1 end`,
        judging: sql`case when ${windowEnded} then ${judging} else throttle.judging + ${judging} end`,
        window_start: sql`case when ${windowEnded} then ${now} else throttle.window_start end`,
      }),
    )
    .returning(['failures', 'window_start']);
});
const deleteSpentRow = preparedQuery((db, value) =>
  db.deleteFrom('throttle').where('key', '=', value<string>('key')).where('window_start', '=', value<number>('windowStart')).where('failures', '<=', value<number>('atMost')),
);
const takeOneBack = preparedQuery((db, value) =>
  db.updateTable('throttle').set({ failures: sql`failures - 1` }).where('key', '=', value<string>('key')).where('window_start', '=', value<number>('windowStart')).returning('failures'),
);
const forgetKey = preparedQuery((db, value) => db.deleteFrom('throttle').where('key', '=', value<string>('key')));
const judgedOne = preparedQuery((db, value) =>
  db.updateTable('throttle').set({ judging: sql`judging - 1` }).where('key', '=', value<string>('key')).where('window_start', '=', value<number>('windowStart')).where('judging', '>', 0),
);
// A success being judged counts itself among the key's attempts being judged.
const forgetKeyNoneJudging = preparedQuery((db, value) => db.deleteFrom('throttle').where('key', '=', value<string>('key')).where('judging', '<=', 1));
const keepFailuresBeingJudged = preparedQuery((db, value) =>
  db
    .updateTable('throttle')
    .set({ failures: sql`case when failures - 1 < judging - 1 then failures - 1 else judging - 1 end` })
    .where('key', '=', value<string>('key')),
);

// Every client authentication reads its key first: compiled once per key count.
const throttleRows = preparedQueryPerCount((db, value, count) =>
  db
    .selectFrom('throttle')
    .selectAll()
    .where('key', 'in', Array.from({ length: count }, (_, at) => value<string>(String(at)))),
);
