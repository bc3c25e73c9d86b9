import { hash } from '@node-rs/argon2';
import { expect, it } from 'vitest';
import { hashesRunning, hashingSlots, hashPassword, verifyPassword } from './passwords';

it('runs no more hashes at once than there are cores, and finishes them all', async () => {
  const stored = await hashPassword('Correct-horse1');
  // The first check makes the unknown-email hash beside it, unawaited: made here, it cannot still be
  // running when the checks below are done (CI 248 caught it so, on a busy VM).
  expect(await verifyPassword(undefined, 'Correct-horse1')).toBe(false);
  let most = 0;
  const watcher = setInterval(() => (most = Math.max(most, hashesRunning())), 1);
  const results = await Promise.all(Array.from({ length: hashingSlots() * 3 }, (_, i) => verifyPassword(stored, i % 2 ? 'Correct-horse1' : 'wrong-horse')));
  clearInterval(watcher);
  expect(most).toBeGreaterThan(0);
  expect(most).toBeLessThanOrEqual(hashingSlots());
  expect(results.filter(Boolean)).toHaveLength(Math.floor((hashingSlots() * 3) / 2));
  expect(hashesRunning()).toBe(0);
});

it('takes a password in any Unicode form: é as one character or as e and an accent is the same password', async () => {
  const composed = 'Caf\u00e9-au-lait1';
  const decomposed = 'Cafe\u0301-au-lait1';
  expect(await verifyPassword(await hashPassword(decomposed), composed)).toBe(true);
  expect(await verifyPassword(await hashPassword(composed), decomposed)).toBe(true);
  expect(await verifyPassword(await hashPassword(composed), 'Cafe-au-lait1')).toBe(false);
  // Hashed as typed, before passwords were normalised: still signs in as typed.
  const older = await hash(decomposed, { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });
  expect(await verifyPassword(older, decomposed)).toBe(true);
  expect(await verifyPassword(undefined, decomposed), 'no account: never').toBe(false);
  expect(await verifyPassword(undefined, 'home-guard timing equaliser'), 'not even with the password of the hash it spends its time on').toBe(false);
});
