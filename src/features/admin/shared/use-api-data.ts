import { useCallback, useEffect, useState } from 'react';
import type { z } from 'zod';
import { callApi } from '../../../api/client';
import { useSession } from '../../../app/session-context';

/**
 * Loads one admin resource and reloads it on demand. Failures are only logged (spec §8) and
 * loading ends either way.
 */
export function useApiData<T>(path: string | null, schema: z.ZodType<T>) {
  const session = useSession();
  const [data, setData] = useState<T | null>(null);
  const [loading, setLoading] = useState(true);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    if (!path) return;
    let current = true;
    setLoading(true);
    callApi(session.connection, 'GET', path, schema)
      .then((value) => current && setData(value))
      .catch((error: unknown) => console.error(`Loading ${path} failed`, error))
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, [path, version, session, schema]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, loading, reload };
}
