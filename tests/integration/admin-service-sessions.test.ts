import { afterEach, beforeEach, expect, it } from 'vitest';
import { oidcJson, startOidcFixture, type OidcFixture } from '../support/oidc-fixture';

// The administrators' list of the sessions services hold (Admin > Sessions, its services tab).

let f: OidcFixture;
beforeEach(async () => {
  f = await startOidcFixture();
});
afterEach(async () => f.close());

type Listed = { user_id: string; user: { full_name: string }; api_service: { name: string }; is_active: boolean };
const list = async (query: string, token = f.adminToken) => (await oidcJson(f.issuer, 'GET', `/api/v1/admin/service-sessions?${query}`, undefined, token)).body as { items: Listed[]; total_pages: number };
const who = (page: { items: Listed[] }) => page.items.map((session) => `${session.user.full_name} @ ${session.api_service.name}`);

async function signIn(name: string, token = f.user.access) {
  const service = await f.createService({ name });
  const { tokens } = await f.signInToService(await f.relyingParty(service), { token });
  return { service, tokens };
}

it('names the person, the service and the address the sign-in was approved from, with its times', async () => {
  const now = f.t.app.services.clock();
  const { service, tokens } = await signIn('Grafana');
  const at = (ms: number) => new Date(ms).toISOString();
  expect((await list('page=1&size=10')).items).toEqual([
    {
      id: expect.any(String),
      user_id: tokens.claims()!.sub,
      user: { full_name: f.user.name, profile_picture: expect.stringMatching(/^\/avatars\//) },
      ip_address: '127.0.0.1',
      is_active: true,
      issued_at: at(now),
      expires_at: at(now + 30 * 24 * 3600 * 1000),
      last_active: at(now),
      revoked_at: null,
      service_id: service.id,
      api_service: { name: 'Grafana', icon_url: null },
      client_id: service.clientId,
    },
  ]);
});

it("finds them by the person's name or email, or the service's name or client ID, newest first, a page at a time", async () => {
  await signIn('Grafana');
  f.t.advance(1_000);
  const { service: immich } = await signIn('Immich');
  f.t.advance(1_000);
  await signIn('Gitea', f.adminToken);
  expect(who(await list('search=OLIVIA'))).toEqual(['Olivia Ident @ Immich', 'Olivia Ident @ Grafana']);
  expect(who(await list(`search=${encodeURIComponent('admin@oidc')}`))).toEqual(['Admin @ Gitea']);
  expect(who(await list('search=immich'))).toEqual(['Olivia Ident @ Immich']);
  expect(who(await list(`search=${immich.clientId}`))).toEqual(['Olivia Ident @ Immich']);
  expect(who(await list('search=%20%20')), 'blank: all of them').toEqual(['Admin @ Gitea', 'Olivia Ident @ Immich', 'Olivia Ident @ Grafana']);
  const second = await list('page=2&size=2');
  expect([who(second), second.total_pages]).toEqual([['Olivia Ident @ Grafana'], 2]);
});

it('shows a session as not active once its end has come', async () => {
  // The fixture's people signed in when the clock last moved: a service session ends 30 days after that.
  await signIn('Grafana');
  f.t.advance(30 * 24 * 3600 * 1000 - 1);
  // The administrator's own sign-in ends with it: a new one reads the list.
  const active = async () => {
    const admin = (await oidcJson(f.issuer, 'POST', '/api/v1/auth/login', f.admin)).body.access as string;
    return (await list('page=1', admin)).items.map((session) => session.is_active);
  };
  expect(await active()).toEqual([true]);
  f.t.advance(1);
  expect(await active()).toEqual([false]);
});
