import { basic, CONNECTIONS, form, scenario, SECONDS, tokenPool, type Row } from './load';

/** One OIDC provider under test: where its endpoints are, its client, and how to get codes. */
export type Side = { base: string; token: string; userinfo: string; jwks: string; id: string; secret: string; redirectUri: string; mintCodes: (n: number) => Promise<string[]> };

/**
 * A scenario prepared on one side, run in `count` short slices that the bench alternates with
 * the other side's: on a noisy VM, 5-second halves one after the other gave ratios 30% apart
 * from one run to the next. `before` readies each slice and is not measured. As many slices run
 * first, unmeasured, so that the figures are of code the JIT has compiled. With one slice (or 8
 * code rounds) of warm-up, both sides' refresh grants still sped up by 30-70% over the next three
 * seconds, and the peer's code exchanges by 15-38% over the next 50 rounds while ours stayed level.
 */
export type Slices = { count: number; before?: () => Promise<void>; slice: () => Promise<Row> };

// oidc-provider's in-memory adapter keeps 1,000 entries (LRU). A code and its grant are two, the
// tokens an exchange issues two more: rounds of 200 fit, where one run of thousands would not.
export const CODE_ROUND = 200;
// A round takes 60-130 ms, and one round's rate can be half the next's: ten rounds for each
// second the other scenarios run measure about as long as they do (8 rounds, 0.7 s a side, gave
// ratios to the peer from 1.18 to 1.66 in ten runs on one VM; 50, from 1.17 to 1.35 in fourteen).
export const CODE_ROUNDS = 10 * SECONDS;

/** A request to a side's token endpoint, as the client authenticates there (client_secret_basic). */
const tokenRequest = (side: Side, body: Record<string, string>) => ({ method: 'POST' as const, path: side.token, headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(side.id, side.secret) }, body: form(body) });

/** The same request sent once, outside a measured run. */
const postToken = (side: Side, body: Record<string, string>) => {
  const { path, ...request } = tokenRequest(side, body);
  return fetch(`${side.base}${path}`, request);
};

const exchange = async (side: Side, code: string) =>
  (await (await postToken(side, { grant_type: 'authorization_code', code, redirect_uri: side.redirectUri })).json()) as Record<string, string>;

/**
 * What a side does, read off one exchange and two refreshes before anything is measured: the
 * algorithm it signs ID tokens with, and whether it rotates refresh tokens (a refresh answers a
 * new one, and the one it replaced is then refused).
 */
export async function observedBehaviour(side: Side): Promise<{ idTokenAlg: string | undefined; rotates: boolean }> {
  const { id_token, refresh_token: first } = await exchange(side, (await side.mintCodes(1))[0]!);
  const idTokenAlg = id_token ? (JSON.parse(Buffer.from(id_token.split('.')[0]!, 'base64url').toString()) as { alg?: string }).alg : undefined;
  if (!first) return { idTokenAlg, rotates: false };
  const refresh = () => postToken(side, { grant_type: 'refresh_token', refresh_token: first });
  const { refresh_token: next } = (await (await refresh()).json()) as Record<string, string>;
  return { idTokenAlg, rotates: Boolean(next) && next !== first && (await refresh()).status === 400 };
}

/** Timed slices of one second each, SECONDS in all. */
const timed = (run: (seconds: number) => Promise<Row>, before?: () => Promise<void>): Slices => ({ count: SECONDS, ...(before ? { before } : {}), slice: () => run(1) });

/** The scenarios run against both providers, alternating slice by slice, with the same settings. */
export const oidcScenarios: Array<[string, (side: Side) => Promise<Slices>]> = [
  ['discovery', async (s) => timed((seconds) => scenario('discovery', s.base, { path: '/.well-known/openid-configuration' }, { seconds }))],
  ['jwks', async (s) => timed((seconds) => scenario('jwks', s.base, { path: s.jwks }, { seconds }))],
  ['userinfo', async (s) => {
    const tokens = await exchange(s, (await s.mintCodes(1))[0]!);
    return timed((seconds) => scenario('userinfo', s.base, { path: s.userinfo, headers: { authorization: `Bearer ${tokens.access_token}` } }, { seconds }));
  }],
  ['refresh_token grant', async (s) => {
    const chains = async (n: number) => Promise.all((await s.mintCodes(n)).map(async (code) => (await exchange(s, code)).refresh_token!));
    const pool = tokenPool(await chains(CONNECTIONS), (body) => body.refresh_token!);
    // A slice's end cuts off the answers in flight, and their chains with them: new ones replace them.
    const refill = async () => pool.add(await chains(Math.max(0, CONNECTIONS - pool.size())));
    return timed((seconds) => scenario('refresh_token grant', s.base, () => {
      const token = pool.take();
      return token ? tokenRequest(s, { grant_type: 'refresh_token', refresh_token: token }) : null;
    }, { done: pool.give, seconds }), refill);
  }],
  ['code exchange', async (s) => {
    let codes: string[] = [];
    return {
      count: CODE_ROUNDS,
      before: async () => void (codes = await s.mintCodes(CODE_ROUND)),
      // Each code once: the run stops at CODE_ROUND requests, so no request that is sent finds the list empty.
      slice: () => scenario('code exchange', s.base, () => tokenRequest(s, { grant_type: 'authorization_code', code: codes.pop()!, redirect_uri: s.redirectUri }), { amount: CODE_ROUND }),
    };
  }],
];
