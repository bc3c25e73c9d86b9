import { sql } from 'kysely';
import type { Database } from '../db/database';
import { preparedQueryPerCount } from '../db/prepared-query';
import { AppError } from '../errors';

export type ThrottleRule = { limit: number; windowSeconds: number };

/** Whether an error is the throttle's refusal (429), not a failure to read it. */
export const isThrottled = (error: unknown): error is AppError => error instanceof AppError && error.statusCode === 429;

/**
 * Counts failures per key in fixed windows, in the database so every replica shares them.
 * Only failures are counted: successful traffic is never slowed.
 */
export class FailureThrottle {
  constructor(
    private readonly db: Database,
    private readonly clock: () => number,
  ) {}

  /**
   * Throws 429 when any key has used up its failures in the current window; otherwise answers
   * the keys that have failures on record (so a success resets only what exists).
   */
  async check(entries: ReadonlyArray<[key: string, rule: ThrottleRule]>): Promise<Set<string>> {
    const now = this.clock();
    const keys = entries.map(([key]) => key);
    const { rows } = await throttleRows(keys.length)(this.db, Object.fromEntries(keys.entries()));
    for (const [key, rule] of entries) {
      const row = rows.find((r) => r.key === key);
      const windowEnd = row ? row.window_start + rule.windowSeconds * 1000 : 0;
      if (row && windowEnd > now && row.failures >= rule.limit) {
        throw AppError.tooManyAttempts((windowEnd - now) / 1000);
      }
    }
    return new Set(rows.map((row) => row.key));
  }

  /** Adds one failure to each key, starting a new window where the old one has ended. */
  async recordFailure(entries: ReadonlyArray<[key: string, rule: ThrottleRule]>): Promise<void> {
    const now = this.clock();
    for (const [key, rule] of entries) {
      const windowStartedBefore = now - rule.windowSeconds * 1000;
      // One atomic upsert, so concurrent failures on several replicas all count.
      await this.db
        .insertInto('throttle')
        .values({ key, window_start: now, failures: 1 })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            failures: sql`case when throttle.window_start <= ${windowStartedBefore} then 1 else throttle.failures + 1 end`,
            window_start: sql`case when throttle.window_start <= ${windowStartedBefore} then ${now} else throttle.window_start end`,
          }),
        )
        .execute();
    }
  }

  async reset(key: string): Promise<void> {
    await this.db.deleteFrom('throttle').where('key', '=', key).execute();
  }
}

// Every client authentication and sign-in reads its keys first: compiled once per key count.
const throttleRows = preparedQueryPerCount((db, value, count) =>
  db
    .selectFrom('throttle')
    .selectAll()
    .where('key', 'in', Array.from({ length: count }, (_, at) => value<string>(String(at)))),
);
