import { MantineProvider } from '@mantine/core';
import { createMemoryHistory } from '@tanstack/react-router';
import { useEffect } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, expect, it } from 'vitest';
import { deviceWithAccounts, savedAccount } from '../../sw/broker/device-with-accounts';
import { createSession, type Session } from '../session/session-store';
import type { AppSession } from '../session/start-session';
import { RoutedApp } from './App';

let root: Root | undefined;
afterEach(() => root?.unmount());

/** Ada signed in on this device; the server's answers to the profile wait until `answer` is called. */
async function signedInDevice() {
  const { broker: api } = await deviceWithAccounts([savedAccount('ada', 'Ada')], 'ada');
  let answer!: (response: Response) => void;
  const answered = new Promise<Response>((resolve) => (answer = resolve));
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
