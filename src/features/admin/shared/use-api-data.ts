import { useCallback, useEffect, useState } from 'react';
import type { z } from 'zod';
import { callApi } from '../../../api/client';
import { ApiError } from '../../../api/errors';
import { useSession } from '../../../app/session-context';

type Loaded<T> = { path: string; version: number; data: T | null; notFound: boolean };

/**
 * Loads one admin resource and reloads it on demand. Failures are only logged (spec §8) and
 * loading ends either way. The data returned always belongs to the current path: when the path
 * changes under a mounted page (the browser's back and forward buttons reuse it), the previous
 * path's data is not shown as the new one's, and a failed load leaves nothing rather than
 * another record. `keepPrevious` lets a list keep its old rows under its loading overlay while
 * the next page or search loads, instead of collapsing the table. `notFound` tells a record that
 * the server says does not exist (404) from one that could not be loaded (offline, no right).
 */
export function useApiData<T>(path: string, schema: z.ZodType<T>, { keepPrevious = false } = {}) {
  const session = useSession();
  const [version, setVersion] = useState(0);
  const [loaded, setLoaded] = useState<Loaded<T> | null>(null);

  useEffect(() => {
    let current = true;
    callApi(session.connection, 'GET', path, schema).then(
      (data) => current && setLoaded({ path, version, data, notFound: false }),
      (error: unknown) => {
        console.error(`Loading ${path} failed`, error);
        // Refused: this account is no longer an administrator. A fresh profile lets the admin
        // guard send it out, instead of empty admin screens.
        if (error instanceof ApiError && error.status === 403) void session.authenticate();
        // A failed reload keeps what this path showed; a failed first load shows nothing.
        const notFound = error instanceof ApiError && error.status === 404;
        if (current) setLoaded((previous) => ({ path, version, data: previous?.path === path && !notFound ? previous.data : null, notFound }));
      },
    );
    return () => {
      current = false;
    };
  }, [path, version, session, schema]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  /** Shows what an action answered at once, before (or instead of) a reload. */
  const replace = useCallback((data: T) => setLoaded((previous) => ({ path, version: previous?.version ?? 0, data, notFound: false })), [path]);
  const loading = loaded?.path !== path || loaded.version !== version;
  const data = loaded && (loaded.path === path || (loading && keepPrevious)) ? loaded.data : null;
  const notFound = !loading && !!loaded?.notFound;
  return { data, loading, notFound, reload, replace };
}
