import type { FastifyBaseLogger } from 'fastify';

/**
 * "Last active" of service sessions, written in batches: userinfo is called on every page a
 * service renders, and a write transaction per call cost more than the rest of the call. The
 * newest time per session is kept in memory and written every `intervalMs` and on close, so a
 * crash loses at most that much of a display-only timestamp; nothing that decides access.
 */
export class LastActiveBatch {
  private pending = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (entries: Array<[id: string, at: number]>) => Promise<void>,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
    intervalMs = 2_000,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  record(id: string, at: number): void {
    if ((this.pending.get(id) ?? 0) < at) this.pending.set(id, at);
  }

  /**
   * Writes what is pending; flushes never overlap. A failed write is logged and its entries kept
   * for the next flush: the promise never rejects, or every later flush chained on it would be skipped.
   */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const entries = [...this.pending];
      this.pending = new Map();
      try {
        await this.write(entries);
      } catch (error) {
        for (const [id, at] of entries) this.record(id, at);
        this.log.warn({ err: error, sessions: entries.length }, "writing service sessions' last activity failed; trying again at the next flush");
      }
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
