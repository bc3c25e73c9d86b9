import { freePort } from '../tests/support/server-process';
import { startBenchProcess } from './bench-process';

export { PEER_CLIENT } from './peer-client';

/** Starts the peer (bench/peer-server.ts) as its own process, as our server runs. */
export async function startPeer(idTokenAlg: 'RS256' | 'ES256' = 'RS256', rotation: 'always' | 'default' = 'always') {
  const [port, controlPort] = [await freePort(), await freePort()];
  const peer = await startBenchProcess('bench/peer-server.ts', { PEER_PORT: String(port), PEER_CONTROL_PORT: String(controlPort), PEER_ID_TOKEN_ALG: idTokenAlg, PEER_ROTATION: rotation });
  const control = `http://127.0.0.1:${controlPort}`;
  return {
    issuer: `http://127.0.0.1:${port}`,
    ...peer,
    /** Codes for one user, minted inside the peer the way it does after sign-in and consent. */
    mintCodes: async (n: number) => (await (await fetch(`${control}/mint?n=${n}`)).json()) as string[],
  };
}
