// Compiles the server into one ES module (dependencies stay in node_modules): `npm start` runs
// it with plain Node. Running through tsx cost 55 MB of resident memory (188 MB idle against
// 133 MB) for a transpiler a production process does not need.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const serverBundle = path.join(root, 'build', 'server', 'main.js');
// The server's memory settings; package.json's start script passes the same (a test compares).
// - V8's young generation capped at 2 MB semi-spaces (16 MB by default): 30 MB less resident
//   memory under load and no slower in the benchmark.
// - One V8 helper thread (concurrent marking, background compilation) instead of four: 7 MB less
//   resident at idle, and the benchmark saw no difference in speed.
// - The old generation collected once it grows 20% past what the last collection kept. V8's own
//   factor adapts, and now and then lets the heap grow to twice the 26 MB it keeps or more before
//   collecting; when that met the sign-ins' two 19 MB argon2id hashes, the benchmark's peak went to
//   159–169 MB (141–151 otherwise). Fixed, the peak stayed at 139–150 MB, at the same speed.
// - libuv's thread pool sized for the machine (scripts/thread-pool.cjs says why it is a preload).
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=2', '--v8-pool-size=1', '--heap-growing-percent=20', '--require=./scripts/thread-pool.cjs'];
// glibc raises its trim and mmap thresholds after every large free, so the freed memory of a burst
// stays resident for good; fixed at glibc's own starting values (128 KiB) it goes back to the
// system: 7–8 MB less before the sign-ins in the benchmark. Ignored by other C libraries.
export const SERVER_ENV = { GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=131072:glibc.malloc.mmap_threshold=131072' };

/** Compiles the server to `outfile` (the tests' copy lives apart, so `npm start` in a test never rewrites a file another test is starting). */
export async function buildServer(outfile = serverBundle) {
  await build({
    entryPoints: [path.join(root, 'server', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  return outfile;
}

/** Files and folders the bundle is compiled from. */
const SOURCES = ['server', 'contract', 'package.json', 'package-lock.json', 'tsconfig.base.json', 'scripts/build-server.mjs'].map((name) => path.join(root, name));

function newestChange(file) {
  const stats = statSync(file);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(stats.mtimeMs, ...readdirSync(file).map((name) => newestChange(path.join(file, name))));
}

/**
 * Whether `outfile` was compiled after every source last changed: `npm start` then runs it as it
 * is, and so works where the checkout cannot be written (a read-only container image).
 */
export function bundleIsCurrent(outfile = serverBundle) {
  if (!existsSync(outfile)) return false;
  return statSync(outfile).mtimeMs >= Math.max(...SOURCES.filter((source) => existsSync(source)).map(newestChange));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
