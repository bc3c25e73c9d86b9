// The peer's process: oidc-provider, the certified Node.js OpenID provider (Logto and VoidAuth
// build on it), with one client and its default in-memory adapter, set to our policies (token
// lifetimes, refresh-token rotation) so that both sides do the same work. It runs apart from the
// load generator, as our server does. A second port mints codes for the bench, the way the provider
// does after sign-in and consent: GET /mint?n=100 answers a JSON array of codes.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';
import { PEER_CLIENT } from './peer-client';

const [port, controlPort] = [Number(process.env.PEER_PORT), Number(process.env.PEER_CONTROL_PORT)];
const issuer = `http://127.0.0.1:${port}`;
// Its development keys are RSA only: to sign ES256 it is given an RSA and a P-256 key.
const es256 = process.env.PEER_ID_TOKEN_ALG === 'ES256';
const privateJwk = (key: KeyObject, alg: string) => ({ ...key.export({ format: 'jwk' }), alg, use: 'sig', kid: alg.toLowerCase() });
const jwks = es256
  ? { jwks: { keys: [privateJwk(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, 'RS256'), privateJwk(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, 'ES256')] } }
  : {};
const provider = new Provider(issuer, {
  ...jwks,
  clients: [{ client_id: PEER_CLIENT.client_id, client_secret: PEER_CLIENT.client_secret, redirect_uris: [PEER_CLIENT.redirect_uri], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], id_token_signed_response_alg: es256 ? 'ES256' : 'RS256' }],
  findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub, email: 'peer@bench.test', email_verified: true, name: 'Peer Person' }) }),
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  features: { devInteractions: { enabled: false } },
  pkce: { required: () => false },
  // Ours rotate a service's refresh token on every use (ARCHITECTURE.md); left at its default, the
  // peer rotates only a public client's, or one past 70% of its lifetime, and a refresh grant then
  // stores one token where ours stores two and retires a third. PEER_ROTATION=default keeps that.
  ...(process.env.PEER_ROTATION === 'default' ? {} : { rotateRefreshToken: true }),
  ttl: { AccessToken: 900, AuthorizationCode: 60, IdToken: 900, RefreshToken: 30 * 24 * 3600, Grant: 30 * 24 * 3600 },
});

async function mintCode(): Promise<string> {
  const client = await provider.Client.find(PEER_CLIENT.client_id);
  const grant = new provider.Grant({ accountId: 'peer-user', clientId: PEER_CLIENT.client_id });
  grant.addOIDCScope('openid email profile offline_access');
  const grantId = await grant.save();
  const code = new provider.AuthorizationCode({ accountId: 'peer-user', grantId, client, redirectUri: PEER_CLIENT.redirect_uri, scope: 'openid email profile offline_access', authTime: Math.floor(Date.now() / 1000) } as never);
  return code.save();
}

provider.listen(port, '127.0.0.1');
createServer(async (request, response) => {
  const n = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('n') ?? 1);
  const codes: string[] = [];
  for (let i = 0; i < n; i++) codes.push(await mintCode());
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify(codes));
}).listen(controlPort, '127.0.0.1', () => process.stdout.write('ready\n'));
