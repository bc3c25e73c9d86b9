import { Button, Text } from '@mantine/core';
import { RouterProvider } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { subscribe } from 'valtio';
import { errorMessage } from '../api/errors';
import { startSession, type AppSession } from '../session/start-session';
import { AlertIcon } from '../ui/icons';
import { LoadingScreen } from '../ui/LoadingScreen';
import { NoticeCard } from '../ui/NoticeCard';
import { AppNotices, NoticesInShell, UpdatePrompt } from './Notices';
import { createAppRouter } from './router';
import { registerServiceWorker } from './service-worker';
import { SessionContext } from './session-context';

/** Who is signed in and what their profile says: when this changes, the route guards run again. */
const guardKey = (session: AppSession) => {
  const { activeAccount, signInRequired, profile, accounts } = session.state;
  return JSON.stringify([activeAccount?.accountId, signInRequired, accounts.length, profile]);
};

function RoutedApp({ session }: { session: AppSession }) {
  const router = useMemo(() => createAppRouter(session), [session]);
  useEffect(() => {
    let last = guardKey(session);
    return subscribe(session.state, () => {
      const next = guardKey(session);
      if (next !== last) {
        last = next;
        void router.invalidate();
      }
    });
  }, [router, session]);
  return (
    <SessionContext.Provider value={session}>
      <RouterProvider router={router} />
    </SessionContext.Provider>
  );
}

export function App() {
  const [session, setSession] = useState<AppSession | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [applyUpdate, setApplyUpdate] = useState<(() => void) | null>(null);
  const [noticesInShell, setNoticesInShell] = useState(false);

  useEffect(() => {
    registerServiceWorker((apply) => setApplyUpdate(() => apply));
    startSession().then(setSession, (error: unknown) => setFailure(errorMessage(error)));
  }, []);

  return (
    <NoticesInShell.Provider value={setNoticesInShell}>
      {!noticesInShell && <AppNotices pageBroker={session?.connection.mode === 'page'} />}
      {failure ? (
        <NoticeCard icon={<AlertIcon size={30} />} colour="red" title="Home Guard cannot start">
          <Text c="dimmed">{failure}</Text>
          {/* What stopped it may pass (storage freed, another tab's upgrade done): a new start is a reload. */}
          <Button onClick={() => window.location.reload()}>Try again</Button>
        </NoticeCard>
      ) : session ? (
        <RoutedApp session={session} />
      ) : (
        <LoadingScreen label="Connecting to local storage..." />
      )}
      {applyUpdate && <UpdatePrompt onReload={applyUpdate} />}
    </NoticesInShell.Provider>
  );
}
