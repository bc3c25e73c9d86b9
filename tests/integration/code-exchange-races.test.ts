import * as client from 'openid-client';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { ServiceSessionsRepository } from '../../server/oauth/service-sessions-repository';
import { CALLBACK, oidcJson, startOidcFixture, type OidcFixture } from '../support/oidc-fixture';

// A code's exchange reads the code, checks it, then uses it and opens the service session in one
// write that holds only if the code is still unused and its sign-in still open. These hold the
// exchange between its read and its write while something else happens there.

let f: OidcFixture;
let config: client.Configuration;
beforeEach(async () => {
  f = await startOidcFixture();
  config = await f.relyingParty(await f.createService());
});
afterEach(async () => {
  vi.restoreAllMocks();
  await f.close();
});

/** Holds the next exchange after it has read its code, until `release` is called. */
function holdAnExchangeAfterItsRead() {
  let [reached, release] = [() => {}, () => {}];
  const [held, gate] = [new Promise<void>((resolve) => (reached = resolve)), new Promise<void>((resolve) => (release = resolve))];
  const findCodeInContext = ServiceSessionsRepository.prototype.findCodeInContext;
  vi.spyOn(ServiceSessionsRepository.prototype, 'findCodeInContext').mockImplementation(async function (this: ServiceSessionsRepository, ...args: Parameters<typeof findCodeInContext>) {
    const code = await findCodeInContext.apply(this, args);
    vi.restoreAllMocks();
    reached();
    await gate;
    return code;
  });
  return { held, release };
}

/** A code given by the consent screen to the holder of `token`, and its exchange by the service. */
async function codeGiven(token?: string) {
  const verifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: 'openid email', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
  const callback = await f.allow(url, token);
  return () => client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
}

const refusal = (exchanged: Promise<unknown>) => exchanged.then(() => 'answered with tokens', (caught: client.ResponseBodyError) => `${caught.error}: ${caught.error_description}`);
const userinfoStatus = async (access: string) => (await fetch(`${f.issuer}/api/v1/oauth/userinfo`, { headers: { authorization: `Bearer ${access}` } })).status;

it('an exchange overtaken by another of the same code gets no tokens, and what the other got is revoked', async () => {
  const exchange = await codeGiven();
  const { held, release } = holdAnExchangeAfterItsRead();
  const overtaken = refusal(exchange());
  await held;
  const first = await exchange();
  expect(await userinfoStatus(first.access_token)).toBe(200);
  release();
  expect(await overtaken).toBe('invalid_grant: The code has already been used');
  expect(await userinfoStatus(first.access_token), 'a copy of the code exists: its session ends').toBe(401);
});

it('an exchange whose sign-in ends between its read and its write gets no tokens, and the code is used up', async () => {
  const signIn = (await oidcJson(f.issuer, 'POST', '/api/v1/auth/login', { email: f.user.email, password: f.user.password })).body;
  const exchange = await codeGiven(signIn.access);
  const { held, release } = holdAnExchangeAfterItsRead();
  const exchanged = refusal(exchange());
  await held;
  expect((await oidcJson(f.issuer, 'POST', '/api/v1/auth/logout', {}, signIn.refresh)).status).toBe(200);
  release();
  expect(await exchanged).toBe('invalid_grant: The sign-in behind this code has ended');
  expect(await f.t.db.selectFrom('service_sessions').select('id').execute(), 'no session was opened').toEqual([]);
  expect(await refusal(exchange())).toBe('invalid_grant: The code has already been used');
});
