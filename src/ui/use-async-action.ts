import { useState } from 'react';
import { errorMessage } from '../api/errors';
import type { Outcome } from './OutcomeAlert';

/**
 * Runs a user action with a busy flag; a failure is logged and kept as the message to show.
 * Returns the outcome to show and a setter for actions that report success themselves.
 */
export function useAsyncAction(description: string) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setOutcome(null);
    try {
      await action();
    } catch (error) {
      console.error(`${description} failed`, error);
      setOutcome({ kind: 'error', message: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };
  return { busy, outcome, setOutcome, run };
}
