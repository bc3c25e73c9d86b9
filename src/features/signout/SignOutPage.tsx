import { Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { endSessionResponseSchema } from '../../../contract/oauth';
import { useSession } from '../../app/session-context';
import { CenteredCard } from '../../ui/CenteredCard';
import { ButtonLink } from '../../ui/links';
import { LoadingScreen } from '../../ui/LoadingScreen';

export type SignOutParams = { id_token_hint?: string | undefined; post_logout_redirect_uri?: string | undefined; state?: string | undefined; client_id?: string | undefined };

/**
 * /signout (RP-initiated logout): ends the service session the ID token names, signs that
 * account out of this device, and returns to the service when its address is registered.
 */
export function SignOutPage({ params }: { params: SignOutParams }) {
  const session = useSession();
  const [done, setDone] = useState(false);

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      try {
        const response = await fetch('/api/v1/oauth/end-session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) });
        const answer = endSessionResponseSchema.parse(await response.json());
        const account = session.state.accounts.find((a) => a.accountId === answer.subject);
        if (account) {
          if (session.state.activeAccount?.accountId === account.accountId) await session.signOut();
          else await session.connection.api.remove(account.accountId);
        }
        if (!cancelled && answer.redirect_to) return window.location.replace(answer.redirect_to);
      } catch (error) {
        console.error('Signing out failed', error);
      }
      if (!cancelled) setDone(true);
    })();
    return () => {
      cancelled = true;
    };
  }, []);

  if (!done) return <LoadingScreen label="Signing out..." />;
  return (
    <CenteredCard>
      <Stack align="center" ta="center" gap="sm">
        <Title order={1} fz={24}>
          You have signed out
        </Title>
        <Text c="dimmed">You can close this window, or go back to Home Guard.</Text>
        <ButtonLink to="/" variant="light">
          Go to Home Guard
        </ButtonLink>
      </Stack>
    </CenteredCard>
  );
}
