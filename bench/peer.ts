import Provider from 'oidc-provider';

// The peer: oidc-provider, the certified Node.js OpenID provider (Logto and VoidAuth build on
// it), with one client and its default in-memory adapter.
export const PEER_CLIENT = { client_id: 'bench-peer', client_secret: 'bench-peer-secret-0123456789abcdef', redirect_uri: 'http://127.0.0.1:9/callback' };

export async function startPeer(port: number) {
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [{ client_id: PEER_CLIENT.client_id, client_secret: PEER_CLIENT.client_secret, redirect_uris: [PEER_CLIENT.redirect_uri], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }],
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub, email: 'peer@bench.test', email_verified: true, name: 'Peer Person' }) }),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => false },
    ttl: { AccessToken: 900, AuthorizationCode: 60, IdToken: 900, RefreshToken: 30 * 24 * 3600, Grant: 30 * 24 * 3600 },
  });
  const server = provider.listen(port);
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));

  /** A code for one user, minted the way the provider does after sign-in and consent. */
  const mintCode = async (): Promise<string> => {
    const client = await provider.Client.find(PEER_CLIENT.client_id);
    const grant = new provider.Grant({ accountId: 'peer-user', clientId: PEER_CLIENT.client_id });
    grant.addOIDCScope('openid email profile offline_access');
    const grantId = await grant.save();
    const code = new provider.AuthorizationCode({ accountId: 'peer-user', grantId, client, redirectUri: PEER_CLIENT.redirect_uri, scope: 'openid email profile offline_access', authTime: Math.floor(Date.now() / 1000) } as never);
    return code.save();
  };
  return { issuer, mintCode, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
