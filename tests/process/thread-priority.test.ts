import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { startServerProcess } from '../support/server-process';

/** A thread's niceness and scheduling policy: fields 19 and 41 of /proc/PID/task/TID/stat (proc(5)). */
function priority(pid: number, thread: number) {
  const fields = readFileSync(`/proc/${pid}/task/${thread}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { niceness: Number(fields[16]), policy: Number(fields[38]) };
}
const SCHED_OTHER = 0;
const SCHED_BATCH = 3;

it('runs the event loop above every other thread of the server (hashing and signing yield to it)', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hg-nice-'));
  const server = await startServerProcess({ DATA_DIR: dataDir, STATIC_DIR: dataDir });
  try {
    const pid = server.child.pid!;
    const others = readdirSync(`/proc/${pid}/task`).map(Number).filter((thread) => thread !== pid);
    expect(priority(pid, pid)).toEqual({ niceness: 0, policy: SCHED_OTHER });
    // libuv's pool alone is four threads.
    expect(others.length).toBeGreaterThanOrEqual(4);
    expect(others.map((thread) => priority(pid, thread))).toEqual(others.map(() => ({ niceness: 10, policy: SCHED_BATCH })));
  } finally {
    await server.stop();
  }
});
