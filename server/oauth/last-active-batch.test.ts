import { expect, it } from 'vitest';
import { LastActiveBatch } from './last-active-batch';

it('writes the newest time per session once per flush, and what is left on close', async () => {
  const written: Array<Array<[string, number]>> = [];
  const batch = new LastActiveBatch(async (entries) => void written.push(entries), 60_000);
  batch.record('a', 10);
  batch.record('a', 30);
  batch.record('a', 20);
  batch.record('b', 5);
  await batch.flush();
  await batch.flush();
  batch.record('b', 7);
  await batch.close();
  expect(written).toEqual([[['a', 30], ['b', 5]], [['b', 7]]]);
});
