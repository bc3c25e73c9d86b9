/**
 * Per throttle key, how many attempts this process is judging, and the attempts waiting for one of
 * them to end (they were past the limit only with those counted, and those may be taken back).
 * Each ending wakes one waiter, not all: a woken crowd would each count and uncount again.
 */
export class JudgingTurns {
  private readonly keys = new Map<string, { judging: number; waiting: Array<() => void> }>();

  judging(key: string): number {
    return this.keys.get(key)?.judging ?? 0;
  }

  start(keys: readonly string[]): void {
    for (const key of keys) this.entry(key).judging += 1;
  }

  /** An attempt is judged: the next waiter of each key gets its turn. */
  end(keys: readonly string[]): void {
    for (const key of keys) {
      this.entry(key).judging -= 1;
      this.passOn(key);
    }
  }

  wait(key: string): Promise<void> {
    return new Promise((resolve) => this.entry(key).waiting.push(resolve));
  }

  /** Wakes the next waiter of a key; a woken attempt refused all the same passes its turn on too. */
  passOn(key: string): void {
    const entry = this.keys.get(key);
    entry?.waiting.shift()?.();
    if (entry && entry.judging === 0 && entry.waiting.length === 0) this.keys.delete(key);
  }

  private entry(key: string) {
    let entry = this.keys.get(key);
    if (!entry) this.keys.set(key, (entry = { judging: 0, waiting: [] }));
    return entry;
  }
}
