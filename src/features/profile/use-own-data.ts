import { useCallback, useEffect, useState } from 'react';
import type { z } from 'zod';
import { callApi } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { useSession } from '../../app/session-context';

/**
 * Loads what a card shows of the signed-in person's own data (their two-step state, devices,
 * services on Personal Info; what Home lists). A failure is kept as the message to show beside
 * Try again; `setData` takes the card's own changes without a reload.
 */
export function useOwnData<T>(path: string, schema: z.ZodType<T>) {
  const session = useSession();
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let current = true;
    setError(null);
    callApi(session.connection, 'GET', path, schema).then(
      (loaded) => current && setData(loaded),
      (failure: unknown) => current && setError(errorMessage(failure)),
    );
    return () => {
      current = false;
    };
  }, [session, path, schema, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, setData, error, reload };
}
