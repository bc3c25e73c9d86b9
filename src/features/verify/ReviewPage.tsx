import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { verificationStatusSchema } from '../../../contract/verification';
import { callApi } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { useSession } from '../../app/session-context';
import { AccountAvatar } from '../../ui/AccountAvatar';
import { VerifyFrame } from './VerifyFrame';

/** Step 3: look it over; Finish completes verification and leaves the flow. */
export function ReviewPage() {
  const session = useSession();
  const { profile } = useSnapshot(session.state);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const finish = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await callApi(session.connection, 'POST', '/api/v1/auth/verify', verificationStatusSchema);
      await session.authenticate(); // the guard then returns to the page first asked for
    } catch (error) {
      console.error('Completing verification failed', error);
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <VerifyFrame step="review" title="All set" subtitle="Your email and your picture are verified. Finish to start using Home Guard.">
      <Stack gap="md">
        {failure && (
          <Alert color="red" variant="light" role="alert">
            {failure}
          </Alert>
        )}
        <Paper withBorder radius="md" p="md">
          <Group wrap="nowrap">
            <AccountAvatar src={profile?.profile_picture} name={profile?.full_name ?? ''} size={64} radius={64} />
            <div style={{ minWidth: 0 }}>
              <Text fw={600} truncate>
                {profile?.full_name}
              </Text>
              <Text size="sm" c="dimmed" truncate>
                {profile?.email}
              </Text>
            </div>
          </Group>
        </Paper>
        <Button onClick={() => void finish()} loading={busy} size="md">
          Finish
        </Button>
      </Stack>
    </VerifyFrame>
  );
}
