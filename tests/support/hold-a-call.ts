import { vi } from 'vitest';

/**
 * Holds the next call of a method once the real method has answered, until `release` is called:
 * a request paused between a read and the write that depends on it, while the test does something
 * else. Calls after it run as usual.
 */
export function holdTheNextCallAfterItsAnswer<T extends object, K extends keyof T & string>(prototype: T, method: K) {
  let [reached, release] = [() => {}, () => {}];
  const [held, gate] = [new Promise<void>((resolve) => (reached = resolve)), new Promise<void>((resolve) => (release = resolve))];
  const methods = prototype as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const original = methods[method]!;
  const spy = vi.spyOn(methods, method).mockImplementation(async function (this: unknown, ...args: unknown[]) {
    const answer = await original.apply(this, args);
    spy.mockRestore();
    reached();
    await gate;
    return answer;
  });
  return { held, release };
}
