import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { ConfigError, insecureSettings, loadConfig, type Config } from './config';
import { migrateWhenReachable, openDatabase, type Database } from './db/database';
import { DatabaseProblem } from './db/database-problems';
import { ensurePwaBuilt } from './http/pwa-build';
import { clockBehindDatabase } from './operations/clock-check';
import { lowerBackgroundThreads } from './operations/thread-priority';
import { homeGuardVersion } from './version';

const SHUTDOWN_DRAIN_MS = 1_000;
const IDLE_SWEEP_MS = 50;
// Requests still open this long after the signal (a client that never sends its body, a mail
// server that never answers) are cut off. Docker's default stop timeout is 10 s before SIGKILL,
// systemd's 90 s: ending before the shorter one means the log says what happened.
const SHUTDOWN_DEADLINE_MS = 8_000;
// SIGHUP (the terminal closed, or a supervisor stopping the service) would kill the process on
// the spot, without draining.
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

// libuv's pool is sized before this module loads: scripts/thread-pool.cjs, a preload.

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
  await migrateWhenReachable(db, config.databaseWaitSeconds, (line) => process.stderr.write(`home-guard: ${line}\n`));
  const app = await buildApp(config, { db });
  for (const warning of insecureSettings(config)) app.log.warn(warning);
  const clockBehind = await clockBehindDatabase(db, Date.now());
  if (clockBehind) app.log.warn(clockBehind);
  app.log.info({ dialect, database: location }, 'database ready');

  stopOnSignals(app, db);

  const lowered = await lowerBackgroundThreads();
  app.log.info({ threads: lowered }, 'background threads lowered below the event loop');
  await app.listen({ port: config.port, host: config.host }).catch((error: unknown) => {
    const code = (error as { code?: unknown }).code;
    throw new ListenProblem(`cannot listen on ${config.host} port ${config.port} (HOST, PORT): ${typeof code === 'string' ? code : String(error)}`);
  });
  app.log.info(`Home Guard ${homeGuardVersion()} is serving ${config.publicUrl}`);
}

/**
 * Drains and stops on SIGINT, SIGTERM or SIGHUP; stops anyway at the deadline, and at once on
 * a second signal.
 */
function stopOnSignals(app: Awaited<ReturnType<typeof buildApp>>, db: Database): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) {
      app.log.warn(`second ${signal}: exiting at once, without waiting for the requests in flight`);
      process.exit(1);
    }
    closing = true;
    app.log.info(`${signal}: draining, then shutting down`);
    // Keep serving for a moment: /readyz now says 503 so a proxy stops sending traffic, and
    // requests already on their way (queued on a connection, waiting for a hash) are answered.
    app.services.lifecycle.draining = true;
    setTimeout(() => {
      // A kept-alive connection whose request is answered after close() began stays open until
      // the client drops it (Fastify's keep-alive is 72 s): close each as it falls idle.
      setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS).unref();
      // Said last: in the log, a clean stop and a crash looked alike.
      app.close().then(() => db.destroy()).then(() => {
        app.log.info('stopped');
        process.exit(0);
      }, () => process.exit(1));
    }, SHUTDOWN_DRAIN_MS);
    setTimeout(() => {
      app.log.error(`shutdown deadline passed ${SHUTDOWN_DEADLINE_MS / 1000} s after ${signal}: force-closing the connections still open and exiting`);
      app.server.closeAllConnections();
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, () => shutdown(signal));
}

/** The address is taken, or HOST names no address of this machine: the operator's to fix. */
class ListenProblem extends Error {}

main().catch((error: unknown) => {
  if (error instanceof DatabaseProblem || error instanceof ListenProblem) {
    process.stderr.write(`home-guard: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`home-guard: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
