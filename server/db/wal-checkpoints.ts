import { open } from 'node:fs/promises';
import type SqliteDatabase from 'better-sqlite3';

/**
 * SQLite's WAL checkpoints on a timer instead of inside commits. By default the connection that
 * commits copies the WAL back into the database and fsyncs it whenever the WAL passes 1,000
 * pages: that nearly doubled a write transaction on the request path (160 µs against 86 µs
 * measured). Four times a second, when anything was written since, the pages changed are copied
 * once, however often they changed, with one fsync. PASSIVE never waits for readers or writers.
 * A checkpoint runs on the event loop and costs 2-20 µs per WAL frame depending on the disk; on a
 * slow one nearly all of it is the fsyncs (248 frames: 5.8 ms, 0.48 ms without them), which keep
 * the file sound through a power cut. So it is kept short: under the refresh-grant benchmark
 * (14,000-28,000 frames a second) a checkpoint once a second stalled the loop for 38-65 ms; every
 * 100 ms the stalls stay under 13 ms (that scenario's p99 41-47 → 21-25 ms) for about 3% more
 * event-loop time (one fsync per checkpoint).
 * (A worker thread doing this cost 12-18 MB of resident memory for no measurable gain.)
 *
 * Before each checkpoint the WAL is flushed to disk from libuv's pool, so the fsync SQLite then
 * makes of it on the event loop finds little left to write: of a 9 ms checkpoint under rotation
 * load, 4 ms were that fsync (measured apart from the server; first-party refresh p99 16-17 → 9
 * ms in the benchmark). The database file's fsync stays: it must follow the copy it makes
 * durable. The flush is one more fsync; what SQLite does, and guarantees, is unchanged.
 * With the WAL flushed ahead, every 250 ms instead of 100 left the refresh scenarios' p99 where it
 * was and made them 5-7% faster (fewer database-file fsyncs, and a page changed twice in the
 * interval is copied once; means of five alternating runs).
 */
export function scheduleWalCheckpoints(sqlite: SqliteDatabase.Database, intervalMs = 250, flush = flushToDisk): { stop(): void } {
  sqlite.pragma('wal_autocheckpoint = 0');
  const changes = sqlite.prepare('select total_changes()').pluck();
  const wal = `${sqlite.name}-wal`;
  let copiedUpTo = -1;
  let running = false;
  const checkpoint = (changed: number) => {
    try {
      const [result] = sqlite.pragma('wal_checkpoint(PASSIVE)') as Array<{ busy: number; log: number; checkpointed: number }>;
      if (result && result.checkpointed === result.log) copiedUpTo = changed;
    } catch {
      // busy or closing: the next tick tries again
    }
  };
  const timer = setInterval(() => {
    if (running || !sqlite.open) return;
    const changed = changes.get() as number;
    // Nothing written since the last complete checkpoint: an idle server stays asleep.
    if (changed === copiedUpTo) return;
    running = true;
    flush(wal)
      .catch(() => {}) // no WAL to flush: SQLite's own fsync still runs
      .then(() => checkpoint(changed))
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** fdatasync on libuv's pool: the file's written pages reach the disk off the event loop. */
export async function flushToDisk(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}
