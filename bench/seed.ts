import path from 'node:path';
import { verifyThroughApi } from '../tests/e2e/support/api';

export const CALLBACK = 'http://127.0.0.1:9/callback';
export const BENCH_USER = { name: 'Bench User', email: 'user@bench.test', password: 'Bench-user12' };
const ADMIN = { name: 'Bench Admin', email: 'admin@bench.test', password: 'Bench-admin1' };

export async function json(base: string, method: string, url: string, body?: unknown, token?: string) {
  const response = await fetch(`${base}${url}`, { method, headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  return response.json() as Promise<Record<string, any>>;
}

export type Seeded = Awaited<ReturnType<typeof seed>>;

/** Seeds through the public API: an administrator, a verified user with `sessions` sign-ins, a service signing ID tokens with `idTokenAlg`. */
export async function seed(base: string, dataDir: string, sessions: number, idTokenAlg: 'RS256' | 'ES256' = 'RS256') {
  for (const person of [ADMIN, BENCH_USER]) {
    await json(base, 'POST', '/api/v1/register', { full_name: person.name, email: person.email, password: person.password });
    await verifyThroughApi(person, base, path.join(dataDir, 'outbox'));
  }
  const adminToken = (await json(base, 'POST', '/api/v1/auth/login', { email: ADMIN.email, password: ADMIN.password })).access as string;
  const service = (await json(base, 'POST', '/api/v1/admin/api-services', { name: 'Bench', description: 'b', redirect_uris: [CALLBACK], scopes: ['openid', 'email', 'profile', 'offline_access'], grant_types: ['authorization_code', 'refresh_token'], id_token_signed_response_alg: idTokenAlg }, adminToken)).credentials as { client_id: string; client_secret: string };
  const logins = await Promise.all(Array.from({ length: sessions }, () => json(base, 'POST', '/api/v1/auth/login', { email: BENCH_USER.email, password: BENCH_USER.password })));
  const userToken = logins[0]!.access as string;
  const mintCode = async () => (await json(base, 'POST', '/api/v1/oauth/code', { client_id: service.client_id, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid email profile offline_access' }, userToken)).code as string;
  return { adminToken, service, refreshTokens: logins.map((l) => l.refresh as string), userToken, mintCodes: async (n: number) => { const codes: string[] = []; for (let i = 0; i < n; i++) codes.push(await mintCode()); return codes; } };
}
