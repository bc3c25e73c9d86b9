import { basic, batch, CONNECTIONS, form, inRounds, scenario, tokenPool, type Row } from './load';

/** One OIDC provider under test: where its endpoints are, its client, and how to get codes. */
export type Side = { base: string; token: string; userinfo: string; jwks: string; id: string; secret: string; redirectUri: string; mintCodes: (n: number) => Promise<string[]> };

// oidc-provider's in-memory adapter keeps 1,000 entries (LRU). A code and its grant are two, the
// tokens an exchange issues two more: rounds of 200 fit, where one run of thousands would not.
const CODE_ROUND = 200;
const CODE_ROUNDS = 8;

function exchange(side: Side, code: string) {
  return fetch(`${side.base}${side.token}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(side.id, side.secret) }, body: form({ grant_type: 'authorization_code', code, redirect_uri: side.redirectUri }) }).then((r) => r.json() as Promise<Record<string, string>>);
}

const tokenRequest = (side: Side, body: Record<string, string>) => ({ method: 'POST' as const, path: side.token, headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(side.id, side.secret) }, body: form(body) });

/** The scenarios run against both providers, alternating, with the same settings. */
export const oidcScenarios: Array<[string, (side: Side) => Promise<Row>]> = [
  ['discovery', (s) => scenario('discovery', s.base, () => ({ path: '/.well-known/openid-configuration' }))],
  ['jwks', (s) => scenario('jwks', s.base, () => ({ path: s.jwks }))],
  ['userinfo', async (s) => {
    const tokens = await exchange(s, (await s.mintCodes(1))[0]!);
    return scenario('userinfo', s.base, () => ({ path: s.userinfo, headers: { authorization: `Bearer ${tokens.access_token}` } }));
  }],
  ['refresh_token grant', async (s) => {
    const chains = await Promise.all((await s.mintCodes(CONNECTIONS)).map(async (code) => (await exchange(s, code)).refresh_token!));
    const pool = tokenPool(chains, (body) => body.refresh_token!);
    return scenario('refresh_token grant', s.base, () => {
      const token = pool.take();
      return token ? tokenRequest(s, { grant_type: 'refresh_token', refresh_token: token }) : null;
    }, { done: pool.give });
  }],
  ['code exchange', (s) => inRounds('code exchange', CODE_ROUNDS, async () => {
    const codes = await s.mintCodes(CODE_ROUND);
    return batch('code exchange', s.base, codes.map((code) => tokenRequest(s, { grant_type: 'authorization_code', code, redirect_uri: s.redirectUri })));
  })],
];
