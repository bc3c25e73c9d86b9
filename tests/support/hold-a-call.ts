import { vi } from 'vitest';

/**
 * Holds the next call of a method once the real method has answered, until `release` is called:
 * a request paused between a read and the write that depends on it, while the test does something
 * else. Calls after it run as usual.
 */
export function holdTheNextCallAfterItsAnswer<T extends object, K extends keyof T & string>(prototype: T, method: K) {
  return holdTheNextCall(prototype, method, async (original, wait) => {
    const answer = await original();
    await wait();
    return answer;
  });
}

/** Holds the next call of a method before the real method runs, until `release` is called: requests made to meet at a write. */
export function holdTheNextCallBeforeItRuns<T extends object, K extends keyof T & string>(prototype: T, method: K) {
  return holdTheNextCall(prototype, method, async (original, wait) => {
    await wait();
    return original();
  });
}

/** The method's next call goes through `run`, which calls the real method and `wait`s for `release` where the mode says. */
function holdTheNextCall(prototype: object, method: string, run: (original: () => Promise<unknown>, wait: () => Promise<void>) => Promise<unknown>) {
  let [reached, release] = [() => {}, () => {}];
  const [held, gate] = [new Promise<void>((resolve) => (reached = resolve)), new Promise<void>((resolve) => (release = resolve))];
  const methods = prototype as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const original = methods[method]!;
  const spy = vi.spyOn(methods, method).mockImplementation(function (this: unknown, ...args: unknown[]) {
    spy.mockRestore();
    return run(
      () => original.apply(this, args),
      () => {
        reached();
        return gate;
      },
    );
  });
  return { held, release };
}

/**
 * Sends the requests one by one, each once the one before is held by a fresh `hold`, then releases
 * them all at once: they meet at the held call (both found a code unused, say). Answers their answers.
 */
export async function meetingAt<T>(hold: () => { held: Promise<void>; release: () => void }, requests: ReadonlyArray<() => Promise<T>>): Promise<T[]> {
  const [answers, holds] = [[] as Array<Promise<T>>, [] as Array<{ release: () => void }>];
  for (const request of requests) {
    const held = hold();
    answers.push(request());
    await held.held;
    holds.push(held);
  }
  for (const held of holds) held.release();
  return Promise.all(answers);
}
