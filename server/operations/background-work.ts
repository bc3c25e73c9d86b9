/**
 * Work a request starts and does not wait for (a mail, the audit line of a refused sign-in),
 * kept track of so that shutting down waits for it before the database closes: a password reset
 * answered a moment before a restart still mails its link.
 */
export class BackgroundWork {
  private readonly running = new Set<Promise<unknown>>();

  /** Lets `work` go on by itself; a failure is `onError`'s to report. */
  start(work: Promise<unknown>, onError: (error: unknown) => void): void {
    const tracked: Promise<unknown> = work.catch(onError).finally(() => this.running.delete(tracked));
    this.running.add(tracked);
  }

  /** Resolves once all work started so far, and any it started in turn, has ended. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
