import { useAsyncAction } from '../ui/use-async-action';
import { useSession } from './session-context';

/**
 * Signs the active account out of this device, with a busy flag while the server is told and a
 * message when this device could not forget it (the worker or the local database failed).
 */
export function useSignOut() {
  const session = useSession();
  const { busy, outcome, setOutcome, run } = useAsyncAction('Sign out');
  return { busy, outcome, signOut: () => void run(() => session.signOut()), forgetOutcome: () => setOutcome(null) };
}
