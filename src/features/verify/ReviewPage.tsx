import { Button, Paper, Stack } from '@mantine/core';
import { useSnapshot } from 'valtio';
import { verificationStatusSchema } from '../../../contract/verification';
import { callApi } from '../../api/client';
import { useSession } from '../../app/session-context';
import { AccountLine } from '../../ui/AccountLine';
import { OutcomeAlert } from '../../ui/OutcomeAlert';
import { useAsyncAction } from '../../ui/use-async-action';
import { VerifyFrame } from './VerifyFrame';

/** Step 3: look it over; Finish completes verification and leaves the flow. */
export function ReviewPage() {
  const session = useSession();
  const { profile } = useSnapshot(session.state);
  const finishing = useAsyncAction('Completing verification');

  const finish = () =>
    finishing.run(async () => {
      await callApi(session.connection, 'POST', '/api/v1/auth/verify', verificationStatusSchema);
      await session.authenticate(); // the guard then returns to the page first asked for
    });

  return (
    <VerifyFrame step="review" title="All set" subtitle="Your email and your picture are verified. Finish to start using Home Guard.">
      <Stack gap="md">
        <OutcomeAlert outcome={finishing.outcome} />
        <Paper withBorder radius="md" p="md">
          <AccountLine label={profile?.full_name ?? ''} email={profile?.email ?? ''} picture={profile?.profile_picture} size={64} />
        </Paper>
        <Button onClick={() => void finish()} loading={finishing.busy} size="md">
          Finish
        </Button>
      </Stack>
    </VerifyFrame>
  );
}
