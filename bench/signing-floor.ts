import { freePort } from '../tests/support/server-process';
import { startBenchProcess } from './bench-process';
import { basic, form, scenario, type Row } from './load';
import { withCpu } from './process-stats';

/**
 * The bare signing server (signing-floor-server.ts) as its own process, measured with the same
 * autocannon settings and the same shape of request as the refresh_token grant.
 */
export async function startSigningFloor(idTokenAlg: 'RS256' | 'ES256') {
  const port = await freePort();
  const floor = await startBenchProcess('bench/signing-floor-server.ts', { SIGNING_FLOOR_PORT: String(port), SIGNING_FLOOR_ALG: idTokenAlg });
  const request = { method: 'POST' as const, path: '/token', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic('floor-client', 'floor-secret') }, body: form({ grant_type: 'refresh_token', refresh_token: 'floor' }) };
  return {
    ...floor,
    /** One timed run, with the CPU its server used. */
    measure: async (): Promise<Row & { cpu: number }> => {
      // Built per request, not encoded once: the grants' requests change, and the floor stands beside them.
      const { result, cpu } = await withCpu(floor.pid, () => scenario('signing floor', `http://127.0.0.1:${port}`, () => request));
      return { ...result, cpu };
    },
  };
}
