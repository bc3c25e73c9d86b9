import { Button, Text } from '@mantine/core';
import { RouterProvider, type RouterHistory } from '@tanstack/react-router';
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

/** The app's routes for the session. `history` is the browser's own unless a test gives one. */
export function RoutedApp({ session, history }: { session: AppSession; history?: RouterHistory }) {
  // The router's first load reads the session in a layout effect of this render; the subscription
  // below starts in a passive effect, a task later. A broker event in between (an account signed
  // out while the page starts) changes what the guards read, so it is compared with the render's.
  const { router, keyAtRender } = useMemo(() => ({ router: createAppRouter(session, history), keyAtRender: guardKey(session) }), [session, history]);
  useEffect(() => {
    let last = keyAtRender;
    const followSession = () => {
      const next = guardKey(session);
      if (next !== last) {
        last = next;
        void router.invalidate();
      }
    };
    const unsubscribe = subscribe(session.state, followSession);
    followSession();
    return unsubscribe;
  }, [router, session, keyAtRender]);
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
