import { useEffect, useState } from 'react';
import { registrationStatusSchema } from '../../../contract/accounts';

let lastAnswer: boolean | undefined;

/**
 * Whether this Home Guard lets anyone register (REGISTRATION=closed leaves that to administrators).
 * Undefined while the server has not answered since the page loaded: then the links and the form
 * stay, and a refused registration says why.
 */
export function useRegistrationOpen(): boolean | undefined {
  // The last answer shows at once on the next screen (no link appearing, then going), and is checked again.
  const [open, setOpen] = useState(lastAnswer);
  useEffect(() => {
    const controller = new AbortController();
    fetch('/api/v1/register', { signal: controller.signal })
      .then(async (response) => (response.ok ? registrationStatusSchema.parse(await response.json()) : undefined))
      .then((status) => {
        if (status) setOpen((lastAnswer = status.open));
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, []);
  return open;
}
