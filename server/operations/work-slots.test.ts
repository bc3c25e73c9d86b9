import { expect, it } from 'vitest';
import { workSlots } from './work-slots';

/** A piece of work that runs until the test lets it finish, noting when it started. */
function heldWork(started: string[], name: string) {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    work: async () => {
      started.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

it('runs at most `size` pieces of work at once; the rest start in the order they came, as slots free up', async () => {
  const slots = workSlots(2);
  const started: string[] = [];
  const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => heldWork(started, name));
  const results = [a, b, c, d].map((held) => slots.run(held!.work));
  await settled();
  expect([started, slots.running()]).toEqual([['a', 'b'], 2]);

  b!.finish();
  await settled();
  expect([started, slots.running()]).toEqual([['a', 'b', 'c'], 2]);
  a!.finish();
  await settled();
  expect(started).toEqual(['a', 'b', 'c', 'd']);

  c!.finish();
  d!.finish();
  expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd']);
  expect(slots.running()).toBe(0);
});

it('gives the slot back when the work fails, to the next in line', async () => {
  const slots = workSlots(1);
  const failed = slots.run(() => Promise.reject(new Error('no picture')));
  const next = slots.run(async () => 'decoded');
  await expect(failed).rejects.toThrow('no picture');
  expect(await next).toBe('decoded');
  expect(slots.running()).toBe(0);
});
