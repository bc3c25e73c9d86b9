import { MantineProvider } from '@mantine/core';
import { createMemoryHistory } from '@tanstack/react-router';
import { deleteDB } from 'idb';
import { useEffect } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Broker } from '../../sw/broker/broker';
import { deriveVaultKey } from '../../sw/vault/crypto';
import { DEVICE_ID_KEY, readSetting, SELECTED_KEY, Vault, VAULT_NAME } from '../../sw/vault/vault';
import { createSession, type Session } from '../session/session-store';
import type { AppSession } from '../session/start-session';
import { RoutedApp } from './App';

// The real broker and vault run in this page, as they do where no service worker is active.
const traits = { userAgent: 'test', language: 'en', platform: 'test', screen: '1x1x24@1', timezone: 'UTC' };
const farFuture = 4102444800;
let root: Root | undefined;
let broker: Broker | undefined;

beforeEach(() => deleteDB(VAULT_NAME));
afterEach(() => {
  root?.unmount();
  void broker?.close();
});

/** Ada signed in on this device; the server's answers to the profile wait until `answer` is called. */
async function signedInDevice() {
  broker = new Broker(location.origin);
  await broker.init(traits);
  const db = await Vault.openDatabase();
  const vault = Vault.withKey(db, await deriveVaultKey((await readSetting(db, DEVICE_ID_KEY))!));
  const access = `e30.${btoa(JSON.stringify({ sub: 'ada', exp: farFuture }))}.sig`;
  await vault.put({ accountId: 'ada', label: 'Ada', email: 'ada@example.com', profilePicture: null, access, refresh: 'refresh-ada', updatedAt: new Date().toISOString() });
  await vault.setSetting(SELECTED_KEY, 'ada');
  vault.close();
  let answer!: (response: Response) => void;
  const answered = new Promise<Response>((resolve) => (answer = resolve));
  const api = broker;
  const session = createSession({ api, fetch: () => answered });
  await session.loadAccounts();
  const connection = { mode: 'page' as const, api, fetch: () => answered, subscribe: () => () => undefined };
  return { session: Object.assign(session, { connection }) as AppSession, answer };
}

/** Mounted before the routes: its effect runs before theirs, as a broker event can. */
function SignedOutAsThePageStarts({ session }: { session: Session }) {
  useEffect(() => {
    void session.onBrokerEvent({ type: 'signed-out', accountId: 'ada', snapshot: { accounts: [], selectedId: null } });
  }, [session]);
  return null;
}

it('sends the page to Sign In when the account is signed out after the routes read the session but before they follow it', async () => {
  const { session, answer } = await signedInDevice();
  const history = createMemoryHistory({ initialEntries: ['/'] });
  const element = document.createElement('div');
  document.body.append(element);
  root = createRoot(element);
  root.render(
    <MantineProvider>
      <SignedOutAsThePageStarts session={session} />
      <RoutedApp session={session} history={history} />
    </MantineProvider>,
  );
  await expect.poll(() => session.state.endedSession).toEqual({ email: 'ada@example.com' });
  // Home's guard was waiting for the profile: the server refuses the ended session.
  answer(new Response(JSON.stringify({ detail: 'Not authenticated' }), { status: 401 }));
  await expect.poll(() => history.location.pathname).toBe('/auth/login');
  await expect.poll(() => element.textContent).toContain('You were signed out of ada@example.com');
});
