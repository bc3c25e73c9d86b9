import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { otherDevicesSignedOutSchema } from '../../../../contract/accounts';
import { adminUserDetailSchema, type AdminUserDetail } from '../../../../contract/admin';
import { callApi } from '../../../api/client';
import { useSession } from '../../../app/session-context';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { OutcomeAlert } from '../../../ui/OutcomeAlert';
import { useAsyncAction } from '../../../ui/use-async-action';
import { useSectionFocus } from '../../../ui/use-section-focus';
import { longDate } from '../shared/format';

/**
 * Signing out everywhere ends someone's sessions (a device lost or taken); disabling also keeps
 * them out. Neither deletes anything of theirs.
 */
export function AccountAccessSection({ user }: { user: AdminUserDetail }) {
  const session = useSession();
  const [disabledAt, setDisabledAt] = useState(user.disabled_at);
  const [confirming, setConfirming] = useState<'disable' | 'sign-out' | null>(null);
  const focus = useSectionFocus();
  const changing = useAsyncAction('Changing the account');
  const isSelf = user.id === session.state.profile?.id;
  const setDisabled = (disabled: boolean) =>
    changing.run(async () => {
      setConfirming(null);
      const updated = await callApi(session.connection, 'PUT', `/api/v1/admin/users/${encodeURIComponent(user.id)}/status`, adminUserDetailSchema, { disabled });
      setDisabledAt(updated.disabled_at);
      changing.setOutcome({ kind: 'success', message: disabled ? `${user.full_name} was signed out of every device and service.` : `${user.full_name} can sign in again.` });
    });
  const signOutEverywhere = () =>
    changing.run(async () => {
      setConfirming(null);
      const { signed_out } = await callApi(session.connection, 'POST', `/api/v1/admin/users/${encodeURIComponent(user.id)}/sign-out`, otherDevicesSignedOutSchema);
      changing.setOutcome({ kind: 'success', message: `${user.full_name} was signed out of ${signed_out === 1 ? '1 device' : `${signed_out} devices`} and every service.` });
    });

  let text = `Enabled: ${user.full_name} can sign in. Signing out everywhere ends their sessions on every device and at every service; disabling also keeps them out until you enable the account again. Nothing of theirs is deleted.`;
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
            <Group gap="sm">
              <Button variant="default" loading={changing.busy} onClick={() => setConfirming('sign-out')}>
                Sign Out Everywhere
              </Button>
              <Button color="red" variant="light" loading={changing.busy} onClick={() => setConfirming('disable')}>
                Disable Account
              </Button>
            </Group>
          )
        )}
      </Stack>
      <ConfirmDialog
        opened={confirming === 'sign-out'}
        title={`Sign ${user.full_name} out everywhere?`}
        message="They are signed out of Home Guard on every device and of every service at once, and may sign in again with their password. To keep them out, disable the account; if someone else may know the password, set a new one."
        confirmLabel="Sign Out"
        onCancel={() => setConfirming(null)}
        onConfirm={() => void signOutEverywhere().finally(focus.refocus)}
      />
      <ConfirmDialog
        opened={confirming === 'disable'}
        title={`Disable ${user.full_name}?`}
        message="They are signed out of Home Guard and of every service at once, and cannot sign in until you enable the account again."
        confirmLabel="Disable"
        onCancel={() => setConfirming(null)}
        onConfirm={() => void setDisabled(true).finally(focus.refocus)}
      />
    </Paper>
  );
}
