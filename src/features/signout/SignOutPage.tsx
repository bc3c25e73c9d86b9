import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { endSessionResponseSchema, opensAnApp, type EndSessionRequest } from '../../../contract/oauth';
import { ApiError, errorMessage } from '../../api/errors';
import { useSession } from '../../app/session-context';
import { AccountLine } from '../../ui/AccountLine';
import { CenteredCard } from '../../ui/CenteredCard';
import { ButtonLink } from '../../ui/links';
import { LoadingScreen } from '../../ui/LoadingScreen';
import { NoticeCard } from '../../ui/NoticeCard';
import { OutcomeAlert } from '../../ui/OutcomeAlert';
import { RetryCard } from '../../ui/RetryCard';
import { useAsyncAction } from '../../ui/use-async-action';

type Stage = { kind: 'ending' } | { kind: 'ask'; redirectTo: string | null } | { kind: 'signed-out' } | { kind: 'failed'; message: string };

/**
 * /signout (RP-initiated logout): ends the service session the ID token names, signs that
 * account out of this device, and returns to the service when its address is registered.
 * Without an ID token naming an account here, the account signed in is not the service's to end:
 * the person is asked (RP-Initiated Logout 1.0 §2), never told they are out while still in.
 */
export function SignOutPage({ params }: { params: EndSessionRequest }) {
  const session = useSession();
  const { activeAccount } = useSnapshot(session.state);
  const [stage, setStage] = useState<Stage>({ kind: 'ending' });
  const [attempt, setAttempt] = useState(0);
  const signingOut = useAsyncAction('Signing out');
  const navigate = useNavigate();

  const finish = (redirectTo: string | null) => {
    if (redirectTo) window.location.replace(redirectTo);
    // An app's own scheme opens the app and this tab stays: it says what happened.
    if (!redirectTo || opensAnApp(redirectTo)) setStage({ kind: 'signed-out' });
  };

  useEffect(() => {
    let cancelled = false;
    setStage({ kind: 'ending' });
    void (async () => {
      try {
        const response = await fetch('/api/v1/oauth/end-session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) });
        if (!response.ok) throw new ApiError(response.status, await response.text());
        const answer = endSessionResponseSchema.parse(await response.json());
        const account = session.state.accounts.find((a) => a.accountId === answer.subject);
        if (!account && session.state.activeAccount) {
          if (!cancelled) setStage({ kind: 'ask', redirectTo: answer.redirect_to });
          return;
        }
        if (account) {
          if (session.state.activeAccount?.accountId === account.accountId) await session.signOut();
          else await session.connection.api.remove(account.accountId);
        }
        if (!cancelled) finish(answer.redirect_to);
      } catch (error) {
        console.error('Signing out failed', error);
        if (!cancelled) setStage({ kind: 'failed', message: errorMessage(error) });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [attempt]);

  if (stage.kind === 'ending') return <LoadingScreen label="Signing out..." />;
  if (stage.kind === 'failed') {
    return <RetryCard title="Signing out did not finish" message="This device is still signed in. Try again when Home Guard can be reached." detail={stage.message} onRetry={() => setAttempt((n) => n + 1)} />;
  }
  if (stage.kind === 'ask' && activeAccount) {
    const stay = () => (stage.redirectTo ? window.location.replace(stage.redirectTo) : void navigate({ to: '/' }));
    const signOutHere = () =>
      signingOut.run(async () => {
        await session.signOut();
        finish(stage.redirectTo);
      });
    return (
      <CenteredCard>
        <Stack align="center" ta="center" gap="xs">
          <Title order={1} fz={24}>
            Sign out of Home Guard?
          </Title>
          <Text c="dimmed">You have signed out of a service. This device is still signed in to Home Guard as:</Text>
        </Stack>
        <Paper withBorder radius="md" p="sm">
          <AccountLine label={activeAccount.label} email={activeAccount.email} picture={activeAccount.profilePicture} />
        </Paper>
        <OutcomeAlert outcome={signingOut.outcome} />
        {/* Narrower side padding: on a phone, half a card is a little too narrow for "Stay signed in" with the usual. */}
        <Group grow>
          <Button variant="default" px="xs" onClick={stay} disabled={signingOut.busy}>
            Stay signed in
          </Button>
          <Button px="xs" onClick={() => void signOutHere()} loading={signingOut.busy}>
            Sign Out
          </Button>
        </Group>
      </CenteredCard>
    );
  }
  return (
    <NoticeCard title="You have signed out">
      <Text c="dimmed">You can close this window, or go back to Home Guard.</Text>
      <ButtonLink to="/" variant="light">
        Go to Home Guard
      </ButtonLink>
    </NoticeCard>
  );
}
