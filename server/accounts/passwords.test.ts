import { expect, it } from 'vitest';
import { hashesRunning, hashingSlots, hashPassword, verifyPassword } from './passwords';

it('runs no more hashes at once than there are cores, and finishes them all', async () => {
  const stored = await hashPassword('Correct-horse1');
  let most = 0;
  const watcher = setInterval(() => (most = Math.max(most, hashesRunning())), 1);
  const results = await Promise.all(Array.from({ length: hashingSlots() * 3 }, (_, i) => verifyPassword(stored, i % 2 ? 'Correct-horse1' : 'wrong-horse')));
  clearInterval(watcher);
  expect(most).toBeGreaterThan(0);
  expect(most).toBeLessThanOrEqual(hashingSlots());
  expect(results.filter(Boolean)).toHaveLength(Math.floor((hashingSlots() * 3) / 2));
  expect(hashesRunning()).toBe(0);
});
