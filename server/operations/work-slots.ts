/**
 * At most `size` pieces of work at once; the rest wait their turn, first come first served. For
 * work that runs on libuv's thread pool (hashes, picture decoding): more at once would only queue
 * inside the pool, holding every thread, and make a token signature or a file read wait behind it.
 * With one slot, it lends SQLite's one connection (server/db/sqlite-busy.ts).
 */
export function workSlots(size: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  /** Waits for a slot and holds it until `give`. */
  const take = async (): Promise<void> => {
    if (running >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
  };
  /** The slot passes straight to the next in line, or is given back. */
  const give = (): void => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
  return {
    size,
    /** How many are running right now. */
    running: () => running,
    take,
    give,
    async run<T>(work: () => Promise<T>): Promise<T> {
      await take();
      try {
        return await work();
      } finally {
        give();
      }
    },
  };
}
