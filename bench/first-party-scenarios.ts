import os from 'node:os';
import { hashPassword, verifyPassword } from '../server/accounts/passwords';
import { scenario, tokenPool, type Context, type Row } from './load';
import { BENCH_USER, type Seeded } from './seed';

// Keycloak's sizing ratio: for every sign-in, 8 refreshes and 40 authenticated calls.
const MIX = { login: 1, refresh: 8, profile: 40 };
const MIX_CYCLE = MIX.login + MIX.refresh + MIX.profile;

/** The first-party API's scenarios (the PWA's calls); each returns one or more table rows. */
export function firstPartyScenarios(base: string, seeded: Seeded): Array<[string, () => Promise<Row[]>]> {
  const refreshes = tokenPool(seeded.refreshTokens, (body) => body.refresh!);
  const refresh = () => {
    const token = refreshes.take();
    return token ? { method: 'POST' as const, path: '/api/v1/auth/refresh', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{}' } : null;
  };
  const profile = { path: '/api/v1/auth/profile', headers: { authorization: `Bearer ${seeded.userToken}` } };
  const login = { method: 'POST' as const, path: '/api/v1/auth/login', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: BENCH_USER.email, password: BENCH_USER.password }) };

  const mixed = (context: Context) => {
    const step = (context.step = ((context.step as number | undefined) ?? -1) + 1) as number;
    const at = step % MIX_CYCLE;
    const wanted = at < MIX.login ? 'login' : at < MIX.login + MIX.refresh ? 'refresh' : 'profile';
    const request = wanted === 'login' ? login : wanted === 'refresh' ? refresh() : profile;
    context.kind = request ? wanted : 'profile';
    return request ?? profile;
  };

  return [
    ['first-party refresh', async () => [await scenario('first-party refresh', base, refresh, { done: refreshes.give })]],
    ['profile GET', async () => [await scenario('profile GET', base, profile)]],
    ['password login', async () => [await scenario('password login', base, login)]],
    ['mixed 1:8:40', async () => [await scenario('mixed 1:8:40', base, mixed, { done: (status, body, context) => context.kind === 'refresh' && refreshes.give(status, body) })]],
    // Logins saturate the hashing pool while profile calls come at a steady rate: the event
    // loop must stay free, so their p99 stays low.
    ['profile during logins', async () => Promise.all([
      scenario('logins, saturating', base, login, { connections: 8 }),
      scenario('profile GET during logins', base, profile, { connections: 4, rate: 200 }),
    ])],
  ];
}

/** What argon2id with the server's own parameters allows on this machine's cores: hashes per second. */
export async function bareArgon2Rate(seconds = 4): Promise<number> {
  const stored = await hashPassword(BENCH_USER.password);
  const started = performance.now();
  let count = 0;
  await Promise.all(Array.from({ length: os.availableParallelism() }, async () => {
    while (performance.now() - started < seconds * 1000) {
      await verifyPassword(stored, BENCH_USER.password);
      count += 1;
    }
  }));
  return Math.round(count / ((performance.now() - started) / 1000));
}
