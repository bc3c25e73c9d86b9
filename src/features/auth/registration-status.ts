import { useEffect, useState } from 'react';
import { registrationStatusSchema } from '../../../contract/accounts';

/**
 * Whether this Home Guard lets anyone register (REGISTRATION=closed leaves that to administrators).
 * Undefined until known, and when the server cannot be reached: then the links and the form stay,
 * and a refused registration says why.
 */
export function useRegistrationOpen(): boolean | undefined {
  const [open, setOpen] = useState<boolean>();
  useEffect(() => {
    const controller = new AbortController();
    fetch('/api/v1/register', { signal: controller.signal })
      .then(async (response) => (response.ok ? registrationStatusSchema.parse(await response.json()) : undefined))
      .then((status) => setOpen(status?.open))
      .catch(() => undefined);
    return () => controller.abort();
  }, []);
  return open;
}
