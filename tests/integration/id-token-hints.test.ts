import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signJwt } from '../../server/keys/sign-jwt';
import { IdTokenHints } from '../../server/oauth/id-token-hints';
import { CALLBACK, oidcJson, startOidcFixture, type OidcFixture } from '../support/oidc-fixture';

// Hints made here carry our own signature, as only our own mistake could: an ID token issued for
// one service with another's session, or a session with another person's subject. Each must still
// be read for what it says, and act on nothing it does not name.
let f: OidcFixture;
beforeEach(async () => {
  f = await startOidcFixture();
});
afterEach(async () => f.close());

/** An ID token hint with these claims, signed with the server's own RS256 key. */
async function ourHint(claims: Record<string, unknown>): Promise<string> {
  const { kid, key } = await f.t.app.services.keys.signingKey('RS256');
  const now = Math.floor(f.t.app.services.clock() / 1000);
  return signJwt('RS256', key, { kid, typ: 'JWT' }, { iss: f.issuer, iat: now, exp: now + 300, ...claims });
}

describe('reading an ID token hint', () => {
  it('takes our issuer, a subject, and the audience asked for; answers its session when it names one', async () => {
    const hints = new IdTokenHints(f.t.app.services.keys, f.issuer);
    const read = async (claims: Record<string, unknown>, clientId?: string) => hints.read(await ourHint(claims), clientId);
    expect(await read({ sub: 'ada', aud: 'grafana', sid: 's1' }, 'grafana')).toEqual({ sub: 'ada', sid: 's1', aud: ['grafana'] });
    expect(await read({ sub: 'ada', aud: ['grafana', 'immich'] })).toEqual({ sub: 'ada', sid: undefined, aud: ['grafana', 'immich'] });
    expect(await read({ sub: 'ada', aud: 'grafana', sid: 7 }), 'a sid that is no string names no session').toEqual({ sub: 'ada', sid: undefined, aud: ['grafana'] });
    for (const [claims, clientId, why] of [
      [{ sub: 'ada', aud: 'grafana', iss: 'https://elsewhere.example' }, undefined, 'another issuer'],
      [{ aud: 'grafana' }, undefined, 'no subject'],
      [{ sub: 42, aud: 'grafana' }, undefined, 'a subject that is no string'],
      [{ sub: 'ada', aud: 'immich' }, 'grafana', 'another audience'],
    ] as const) {
      expect(await read(claims, clientId), why).toBeNull();
    }
  });
});

describe('signing out with a hint that names a session not its own (RP-Initiated Logout §2)', () => {
  const endSession = (hint: string, clientId?: string) =>
    oidcJson(f.issuer, 'POST', '/api/v1/oauth/end-session', { id_token_hint: hint, post_logout_redirect_uri: CALLBACK, state: 's', ...(clientId ? { client_id: clientId } : {}) });

  it("ends nothing for a hint of another service's session, or of another person's: only the one it was issued for", async () => {
    const grafana = await f.createService();
    const immich = await f.createService({ name: 'Immich' });
    const { tokens } = await f.signInToService(await f.relyingParty(grafana));
    const { sub, sid } = tokens.claims()!;
    const stillSignedIn = async () => (await oidcJson(f.issuer, 'GET', '/api/v1/oauth/userinfo', undefined, tokens.access_token)).status === 200;

    // Grafana's session, in a hint for Immich: Immich has no such session.
    expect((await endSession(await ourHint({ sub, sid, aud: immich.clientId }), immich.clientId)).body).toEqual({ redirect_to: `${CALLBACK}?state=s`, subject: null });
    // Grafana's session, for someone else signed in there.
    const someoneElse = (await oidcJson(f.issuer, 'GET', '/api/v1/auth/profile', undefined, f.adminToken)).body.id as string;
    expect((await endSession(await ourHint({ sub: someoneElse, sid, aud: grafana.clientId }))).body).toEqual({ redirect_to: `${CALLBACK}?state=s`, subject: null });
    expect(await stillSignedIn()).toBe(true);

    // The same hint, naming its own service and person, ends it.
    expect((await endSession(await ourHint({ sub, sid, aud: grafana.clientId }))).body).toEqual({ redirect_to: `${CALLBACK}?state=s`, subject: sub });
    expect(await stillSignedIn()).toBe(false);
  });
});
