import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { adminUserDetailSchema, type AdminUserDetail } from '../../../../contract/admin';
import { callApi } from '../../../api/client';
import { useSession } from '../../../app/session-context';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { OutcomeAlert } from '../../../ui/OutcomeAlert';
import { useAsyncAction } from '../../../ui/use-async-action';
import { useSectionFocus } from '../../../ui/use-section-focus';
import { OwnAccountCard } from './OwnAccountCard';

/** For someone who lost their authenticator app: the administrator turns two-step sign-in off. */
export function TwoStepAdminSection({ user }: { user: AdminUserDetail }) {
  const session = useSession();
  const [enabled, setEnabled] = useState(user.two_step_enabled);
  const [confirming, setConfirming] = useState(false);
  const focus = useSectionFocus();
  const turningOff = useAsyncAction('Turning off two-step sign-in');
  const turnOff = () =>
    turningOff.run(async () => {
      setConfirming(false);
      const updated = await callApi(session.connection, 'DELETE', `/api/v1/admin/users/${encodeURIComponent(user.id)}/two-step`, adminUserDetailSchema);
      setEnabled(updated.two_step_enabled);
      turningOff.setOutcome({ kind: 'success', message: `Two-step sign-in is off. ${user.full_name} signs in with their password alone.` });
    });

  if (user.id === session.state.profile?.id) return <OwnAccountCard title="Two-Step Sign-In" what="your two-step sign-in" />;
  return (
    <Paper withBorder radius="md" p="lg" maw={560} ref={focus.section}>
      <Stack gap="sm" align="flex-start">
        <Title order={2} fz="lg" tabIndex={-1}>
          Two-Step Sign-In
        </Title>
        <OutcomeAlert outcome={turningOff.outcome} />
        <Text size="sm" c="dimmed">
          {enabled
            ? `On: signing in asks ${user.full_name} for a code from an authenticator app. If they lost the app, turn it off; they can set it up again under Personal Info.`
            : `Off. ${user.full_name} can turn it on under Personal Info.`}
        </Text>
        {enabled && (
          <Button color="red" variant="light" loading={turningOff.busy} onClick={() => setConfirming(true)}>
            Turn Off Two-Step Sign-In
          </Button>
        )}
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title={`Turn off two-step sign-in for ${user.full_name}?`}
        message="Their password alone will sign them in. Do this only when you know it is them asking."
        confirmLabel="Turn Off"
        onCancel={() => setConfirming(false)}
        onConfirm={() => void turnOff().finally(focus.refocus)}
      />
    </Paper>
  );
}
