import { execFile } from 'node:child_process';
import { pbkdf2 } from 'node:crypto';
import { readdirSync } from 'node:fs';
import os from 'node:os';

const BACKGROUND_NICENESS = 10;

/**
 * The event loop comes first. Password hashes keep every core busy during a burst of sign-ins;
 * at equal priority the event loop then got a third of a core and a profile call's p99 went
 * past 100 ms. Every thread but the main one (libuv's pool, V8's helpers) is lowered to
 * niceness 10: hashing still uses all idle CPU, but yields it to the event loop.
 *
 * They also run as SCHED_BATCH (`chrt`, from util-linux): a woken batch thread waits for the
 * running one's time slice instead of preempting it. Without it, handing a token signature to
 * the pool often cost the event loop its core on two cores (means of alternating benchmark runs
 * on two VMs: refresh grants 4% and code exchanges 4–9% faster, sign-ins 5–6 points nearer the
 * bare hash rate). Where `chrt` is missing the threads stay niced only. Threads that these start
 * later inherit both (libvips' workers, started from a pool thread when a picture comes).
 * Linux only (per-thread priorities); elsewhere nothing changes. Returns the threads lowered.
 */
export async function lowerBackgroundThreads(): Promise<number> {
  if (process.platform !== 'linux') return 0;
  // libuv starts its whole pool on first use: start it now, so its threads exist to be lowered.
  await new Promise((resolve) => pbkdf2('', '', 1, 1, 'sha256', resolve));
  const lowered: number[] = [];
  for (const thread of readdirSync('/proc/self/task').map(Number)) {
    if (thread === process.pid) continue;
    try {
      os.setPriority(thread, BACKGROUND_NICENESS);
      lowered.push(thread);
    } catch {
      // the thread has ended since the listing
    }
  }
  await Promise.all(lowered.map((thread) => new Promise((resolve) => execFile('chrt', ['--batch', '--pid', '0', String(thread)], resolve))));
  return lowered.length;
}
