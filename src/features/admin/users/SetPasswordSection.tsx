import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Button, Group, Modal, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { z } from 'zod';
import type { AdminUserDetail } from '../../../../contract/admin';
import { callApi } from '../../../api/client';
import { useSession } from '../../../app/session-context';
import { OutcomeAlert } from '../../../ui/OutcomeAlert';
import { useAsyncAction } from '../../../ui/use-async-action';
import { setPasswordFormSchema } from './user-forms';

/**
 * For someone who forgot their password: the administrator sets a new one, and the person is
 * signed out of Home Guard everywhere (their services' sessions go on). Setting one's own keeps
 * the session it is set from.
 */
export function SetPasswordSection({ user }: { user: AdminUserDetail }) {
  const session = useSession();
  const self = user.id === session.state.profile?.id;
  const [open, setOpen] = useState(false);
  const setting = useAsyncAction('Setting the password');
  const [form, fields] = useForm({
    id: `set-password-${user.id}`,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: setPasswordFormSchema }),
    onSubmit: (event, { submission }) => {
      event.preventDefault();
      if (submission?.status !== 'success') return;
      void setting.run(async () => {
        await callApi(session.connection, 'PUT', `/api/v1/admin/users/${encodeURIComponent(user.id)}/password`, z.object({}), { password: submission.value.password });
        close();
        setting.setOutcome({ kind: 'success', message: self ? 'Your new password is set. Your other devices were signed out.' : `The new password is set. ${user.full_name} was signed out of every device.` });
      });
    },
  });
  const start = () => {
    setting.setOutcome(null);
    setOpen(true);
  };
  const close = () => {
    setOpen(false);
    form.reset();
  };

  return (
    <Paper withBorder radius="md" p="lg" maw={560}>
      <Stack gap="sm" align="flex-start">
        <Title order={2} fz="lg">
          Password
        </Title>
        {!open && <OutcomeAlert outcome={setting.outcome} />}
        <Text size="sm" c="dimmed">
          {self ? 'A new password signs you out of Home Guard on your other devices.' : `If ${user.full_name} forgot their password, set a new one and tell them. They are signed out of Home Guard on every device.`}
        </Text>
        <Button variant="default" onClick={start}>
          Set New Password
        </Button>
      </Stack>
      <Modal opened={open} onClose={close} title={self ? 'Set your new password' : `Set a new password for ${user.full_name}`} centered>
        <form {...getFormProps(form)}>
          <Stack gap="sm">
            <OutcomeAlert outcome={setting.outcome} />
            <PasswordInput {...getInputProps(fields.password, { type: 'password' })} key={fields.password.key} label="New Password" autoComplete="new-password" error={fields.password.errors?.[0]} data-autofocus />
            <PasswordInput {...getInputProps(fields.repeat_password, { type: 'password' })} key={fields.repeat_password.key} label="Repeat Password" autoComplete="new-password" error={fields.repeat_password.errors?.[0]} />
            <Group justify="flex-end" mt="sm">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={setting.busy}>
                Set Password
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Paper>
  );
}
