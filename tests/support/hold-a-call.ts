import { vi } from 'vitest';

/**
 * Holds the next call of a method once the real method has answered, until `release` is called:
 * a request paused between a read and the write that depends on it, while the test does something
 * else. Calls after it run as usual.
 */
export function holdTheNextCallAfterItsAnswer<T extends object, K extends keyof T & string>(prototype: T, method: K) {
  return holdTheNextCall(prototype, method, 'after');
}

/** Holds the next call of a method before the real method runs, until `release` is called: requests made to meet at a write. */
export function holdTheNextCallBeforeItRuns<T extends object, K extends keyof T & string>(prototype: T, method: K) {
  return holdTheNextCall(prototype, method, 'before');
}

function holdTheNextCall(prototype: object, method: string, when: 'before' | 'after') {
  let [reached, release] = [() => {}, () => {}];
  const [held, gate] = [new Promise<void>((resolve) => (reached = resolve)), new Promise<void>((resolve) => (release = resolve))];
  const methods = prototype as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const original = methods[method]!;
  const spy = vi.spyOn(methods, method).mockImplementation(async function (this: unknown, ...args: unknown[]) {
    spy.mockRestore();
    const answer = when === 'after' ? await original.apply(this, args) : undefined;
    reached();
    await gate;
    return when === 'after' ? answer : original.apply(this, args);
  });
  return { held, release };
}
