import { spawn } from 'node:child_process';
import { repoRoot } from '../tests/support/server-process';

/**
 * Starts a bench script as its own process (apart from the load generator, as our server runs)
 * and waits until it prints `ready`.
 */
export async function startBenchProcess(script: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`${script} exited (${code})`)));
  });
  return {
    pid: child.pid!,
    close: () => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill()))),
  };
}
