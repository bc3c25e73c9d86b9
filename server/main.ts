import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { ConfigError, insecureSettings, loadConfig, type Config } from './config';
import { migrateToLatest, openDatabase } from './db/database';
import { ensurePwaBuilt } from './http/pwa-build';
import { lowerBackgroundThreads } from './operations/thread-priority';

const SHUTDOWN_DRAIN_MS = 1_000;

// libuv's pool, sized for the machine before its first use: one password hash per core
// (accounts/passwords.ts) plus two threads that signatures and file reads never wait behind.
process.env.UV_THREADPOOL_SIZE ??= String(os.availableParallelism() + 2);

/** The checkout this file runs from: server/main.ts from source, build/server/main.js compiled. */
function findRepoRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return from;
  }
}

const repoRoot = findRepoRoot(path.dirname(fileURLToPath(import.meta.url)));

function readConfig(): Config {
  try {
    return loadConfig(process.env, path.join(repoRoot, 'dist'));
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`home-guard: invalid configuration: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  const defaultDist = path.join(repoRoot, 'dist');
  if (config.staticDir === defaultDist) ensurePwaBuilt(repoRoot, defaultDist, (m) => process.stderr.write(`home-guard: ${m}\n`));
  const { db, dialect, location } = openDatabase(config);
  await migrateToLatest(db);
  const app = await buildApp(config, { db });
  for (const warning of insecureSettings(config)) app.log.warn(warning);
  app.log.info({ dialect, database: location }, 'database ready');

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: draining, then shutting down`);
    // Keep serving for a moment: /readyz now says 503 so a proxy stops sending traffic, and
    // requests already on their way (queued on a connection, waiting for a hash) are answered.
    app.services.lifecycle.draining = true;
    setTimeout(() => {
      app.close().then(() => db.destroy()).then(() => process.exit(0), () => process.exit(1));
    }, SHUTDOWN_DRAIN_MS);
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  const lowered = await lowerBackgroundThreads();
  app.log.info({ threads: lowered }, 'background threads lowered below the event loop');
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Home Guard is serving ${config.publicUrl}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`home-guard: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
