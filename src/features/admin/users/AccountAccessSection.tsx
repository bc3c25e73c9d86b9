import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { adminUserDetailSchema, type AdminUserDetail } from '../../../../contract/admin';
import { callApi } from '../../../api/client';
import { useSession } from '../../../app/session-context';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { OutcomeAlert } from '../../../ui/OutcomeAlert';
import { useAsyncAction } from '../../../ui/use-async-action';
import { useSectionFocus } from '../../../ui/use-section-focus';
import { longDate } from '../shared/format';

/** Disabling keeps someone out (of Home Guard and every service) without deleting anything of theirs. */
export function AccountAccessSection({ user }: { user: AdminUserDetail }) {
  const session = useSession();
  const [disabledAt, setDisabledAt] = useState(user.disabled_at);
  const [confirming, setConfirming] = useState(false);
  const focus = useSectionFocus();
  const changing = useAsyncAction('Changing the account');
  const isSelf = user.id === session.state.profile?.id;
  const setDisabled = (disabled: boolean) =>
    changing.run(async () => {
      setConfirming(false);
      const updated = await callApi(session.connection, 'PUT', `/api/v1/admin/users/${encodeURIComponent(user.id)}/status`, adminUserDetailSchema, { disabled });
      setDisabledAt(updated.disabled_at);
      changing.setOutcome({ kind: 'success', message: disabled ? `${user.full_name} was signed out of every device and service.` : `${user.full_name} can sign in again.` });
    });

  let text = `Enabled: ${user.full_name} can sign in. Disabling signs them out of Home Guard and every service at once, and keeps them out until you enable the account again. Nothing of theirs is deleted.`;
  if (disabledAt) text = `Disabled since ${longDate(disabledAt)}: ${user.full_name} cannot sign in.`;
  else if (isSelf) text = 'Enabled. This is your own account: another administrator can disable it.';
  return (
    <Paper withBorder radius="md" p="lg" maw={560} ref={focus.section}>
      <Stack gap="sm" align="flex-start">
        <Title order={2} fz="lg" tabIndex={-1}>
          Account Access
        </Title>
        <OutcomeAlert outcome={changing.outcome} />
        <Text size="sm" c="dimmed">
          {text}
        </Text>
        {disabledAt ? (
          <Button variant="light" loading={changing.busy} onClick={() => void setDisabled(false)}>
            Enable Account
          </Button>
        ) : (
          !isSelf && (
            <Button color="red" variant="light" loading={changing.busy} onClick={() => setConfirming(true)}>
              Disable Account
            </Button>
          )
        )}
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title={`Disable ${user.full_name}?`}
        message="They are signed out of Home Guard and of every service at once, and cannot sign in until you enable the account again."
        confirmLabel="Disable"
        onCancel={() => setConfirming(false)}
        onConfirm={() => void setDisabled(true).finally(focus.refocus)}
      />
    </Paper>
  );
}
