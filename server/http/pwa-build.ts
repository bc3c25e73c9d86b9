import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

// What the PWA is built from; a change to any of these makes dist/ stale.
const SOURCES = ['src', 'sw', 'contract', 'public', 'index.html', 'vite.config.ts', 'scripts/vite-precompress-plugin.ts', 'scripts/vite-admin-chunks-plugin.ts', 'manifest.webmanifest', 'package-lock.json'];

function newestModification(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestModification(path.join(entry, name)));
  return newest;
}

/** True when dist/ is missing or older than any of the PWA's sources. */
export function pwaBuildIsStale(repoRoot: string, distDir: string): boolean {
  const built = path.join(distDir, 'index.html');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return SOURCES.some((source) => newestModification(path.join(repoRoot, source)) > builtAt);
}

/** Builds the PWA with Vite when running from a source checkout and the build is stale. */
export function ensurePwaBuilt(repoRoot: string, distDir: string, log: (message: string) => void): void {
  if (!existsSync(path.join(repoRoot, 'vite.config.ts')) || !pwaBuildIsStale(repoRoot, distDir)) return;
  log('building the web app (dist/ is missing or older than its sources)…');
  const vite = path.join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new Error('building the web app failed (see the output above)');
}
