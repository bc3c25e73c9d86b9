import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../scripts/build-server.mjs';

// An ES module, as the server is: it uses the pool, then counts the process's threads.
const COUNT_THREADS = `
  import { pbkdf2 } from 'node:crypto';
  import { readdirSync } from 'node:fs';
  await Promise.all(Array.from({ length: 8 }, () => new Promise((done) => pbkdf2('a', 'b', 1000, 32, 'sha256', done))));
  console.log(readdirSync('/proc/self/task').length);
`;

/** The threads of a Node process on one core, started with the server's flags or others. */
const threadsOnOneCore = (flags: string[], env: Record<string, string> = {}) =>
  Number(execFileSync('taskset', ['-c', '0', process.execPath, ...flags, '--input-type=module', '-e', COUNT_THREADS], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' }).trim());

it("sizes libuv's thread pool for the machine before the first module loads: one core, three threads", () => {
  const serverFlags = SERVER_NODE_FLAGS.filter((flag) => flag.startsWith('--require'));
  expect(serverFlags).toHaveLength(1);
  const threeThreads = threadsOnOneCore([], { UV_THREADPOOL_SIZE: '3' });
  expect(threadsOnOneCore([], { UV_THREADPOOL_SIZE: '5' }), 'the count tells the pool size').toBe(threeThreads + 2);
  expect(threadsOnOneCore(serverFlags)).toBe(threeThreads);
  // Set in the environment, it is the operator's.
  expect(threadsOnOneCore(serverFlags, { UV_THREADPOOL_SIZE: '5' })).toBe(threeThreads + 2);
});
