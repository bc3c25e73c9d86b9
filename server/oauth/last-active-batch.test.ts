import { expect, it } from 'vitest';
import { LastActiveBatch } from './last-active-batch';

const quiet = { warn: () => {} };

it('writes the newest time per session once per flush, and what is left on close', async () => {
  const written: Array<Array<[string, number]>> = [];
  const batch = new LastActiveBatch(async (entries) => void written.push(entries), quiet, 60_000);
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

it('after a failed write, logs it and writes those entries at the next flush; close still resolves', async () => {
  const written: Array<Array<[string, number]>> = [];
  let failures = 1;
  const write = async (entries: Array<[string, number]>) => {
    if (failures-- > 0) throw new Error('database is locked');
    written.push(entries);
  };
  const warned: unknown[] = [];
  const log = { warn: (entry: unknown, message?: string) => void warned.push([entry, message]) };
  const batch = new LastActiveBatch(write, log, 60_000);
  batch.record('a', 10);
  batch.record('b', 5);
  await batch.flush();
  expect(warned).toEqual([[{ err: new Error('database is locked'), sessions: 2 }, "writing service sessions' last activity failed; trying again at the next flush"]]);
  expect(written).toEqual([]);
  batch.record('a', 20);
  batch.record('c', 1);
  await batch.flush();
  expect(written).toEqual([[['a', 20], ['b', 5], ['c', 1]]]);
  batch.record('c', 2);
  await expect(batch.close()).resolves.toBeUndefined();
  expect(written).toEqual([[['a', 20], ['b', 5], ['c', 1]], [['c', 2]]]);
});

it('writes on its own every interval, with nobody asking', async () => {
  const written: Array<Array<[string, number]>> = [];
  const batch = new LastActiveBatch(async (entries) => void written.push(entries), quiet, 20);
  try {
    batch.record('a', 10);
    await expect.poll(() => written).toEqual([[['a', 10]]]);
  } finally {
    await batch.close();
  }
});
