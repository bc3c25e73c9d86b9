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
