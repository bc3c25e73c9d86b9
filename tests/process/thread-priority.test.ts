import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { startServerProcess } from '../support/server-process';

const niceness = (pid: number, thread: number) => Number(readFileSync(`/proc/${pid}/task/${thread}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);

it('runs the event loop above every other thread of the server (hashing yields to it)', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hg-nice-'));
  const server = await startServerProcess({ DATA_DIR: dataDir, STATIC_DIR: dataDir });
  try {
    const pid = server.child.pid!;
    const others = readdirSync(`/proc/${pid}/task`).map(Number).filter((thread) => thread !== pid);
    expect(niceness(pid, pid)).toBe(0);
    // libuv's pool alone is four threads.
    expect(others.length).toBeGreaterThanOrEqual(4);
    expect(others.map((thread) => niceness(pid, thread))).toEqual(others.map(() => 10));
  } finally {
    await server.stop();
  }
});
