import { spawn } from 'node:child_process';
import { freePort, repoRoot } from '../tests/support/server-process';

export { PEER_CLIENT } from './peer-client';

/** Starts the peer (bench/peer-server.ts) as its own process, as our server runs. */
export async function startPeer(idTokenAlg: 'RS256' | 'ES256' = 'RS256') {
  const [port, controlPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/peer-server.ts'], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', PEER_PORT: String(port), PEER_CONTROL_PORT: String(controlPort), PEER_ID_TOKEN_ALG: idTokenAlg },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`the peer exited (${code})`)));
  });
  const control = `http://127.0.0.1:${controlPort}`;
  return {
    issuer: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    /** Codes for one user, minted inside the peer the way it does after sign-in and consent. */
    mintCodes: async (n: number) => (await (await fetch(`${control}/mint?n=${n}`)).json()) as string[],
    close: () => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill()))),
  };
}
