import { useRef, useState } from 'react';
import { errorMessage } from '../api/errors';
import type { Outcome } from './OutcomeAlert';

/**
 * Runs a user action with a busy flag; a failure is logged and kept as the message to show.
 * Returns the outcome to show and a setter for actions that report success themselves. One run
 * at a time: a second click before the first is done (a double click on a closing dialog's
 * button, before the busy flag has disabled anything) is ignored, not sent again.
 */
export function useAsyncAction(description: string) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const running = useRef(false);
  /** Answers whether the action ran and succeeded. */
  const run = async (action: () => Promise<void>): Promise<boolean> => {
    if (running.current) return false;
    running.current = true;
    setBusy(true);
    setOutcome(null);
    try {
      await action();
      return true;
    } catch (error) {
      console.error(`${description} failed`, error);
      setOutcome({ kind: 'error', message: errorMessage(error) });
      return false;
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return { busy, outcome, setOutcome, run };
}
