import { createContext, useContext } from 'react';
import type { AppSession } from '../session/start-session';

export const SessionContext = createContext<AppSession | null>(null);

/** The app's session (store and actions); available below <SessionContext.Provider>. */
export function useSession(): AppSession {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionContext');
  return session;
}
