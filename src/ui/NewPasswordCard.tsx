import { getFormProps, getInputProps } from '@conform-to/react';
import { Button, Group, Modal, Paper, PasswordInput, Stack, Text, Title, type PaperProps } from '@mantine/core';
import { useState } from 'react';
import type { z } from 'zod';
import { OutcomeAlert } from './OutcomeAlert';
import { useAsyncAction } from './use-async-action';
import { useSchemaForm } from './use-schema-form';

export type NewPasswordForm = { current_password?: string; password: string; repeat_password: string };

type Props = {
  id: string;
  /** What setting a password does, shown beside the button. */
  description: string;
  action: string;
  dialogTitle: string;
  schema: z.ZodType<NewPasswordForm>;
  /** Asks for the current password too (a person changing their own). */
  askCurrent?: boolean;
  /** Sends the new password; answers the message to show once it is set. */
  submit: (form: NewPasswordForm) => Promise<string>;
  /** The card's frame, to match the page's other cards. */
  frame?: PaperProps;
};

/** A 'Password' card whose button opens a dialog for a new password, typed twice. */
export function NewPasswordCard({ id, description, action, dialogTitle, schema, askCurrent = false, submit, frame }: Props) {
  const [open, setOpen] = useState(false);
  const setting = useAsyncAction(action);
  const [form, fields] = useSchemaForm({
    id,
    schema,
    onValid: (values) =>
      setting.run(async () => {
        const message = await submit(values);
        close();
        setting.setOutcome({ kind: 'success', message });
      }),
  });
  const start = () => {
    setting.setOutcome(null);
    setOpen(true);
  };
  const close = () => {
    setOpen(false);
    form.reset();
  };
  // A refusal belongs to the dialog: cancelled, it is not left on the card to be read out again.
  const cancel = () => {
    setting.setOutcome(null);
    close();
  };

  return (
    <Paper withBorder radius="md" p="lg" {...frame}>
      <Stack gap="sm" align="flex-start">
        <Title order={2} fz="lg">
          Password
        </Title>
        {/* Kept while the dialog is open, so the message put in it when it closes is read out. */}
        <OutcomeAlert outcome={open ? null : setting.outcome} />
        <Text size="sm" c="dimmed">
          {description}
        </Text>
        <Button variant="default" onClick={start}>
          {action}
        </Button>
      </Stack>
      <Modal opened={open} onClose={cancel} title={dialogTitle} centered>
        <form {...getFormProps(form)}>
          <Stack gap="sm">
            <OutcomeAlert outcome={setting.outcome} />
            {askCurrent && (
              <PasswordInput {...getInputProps(fields.current_password, { type: 'password' })} key={fields.current_password.key} label="Current Password" autoComplete="current-password" error={fields.current_password.errors?.[0]} data-autofocus />
            )}
            <PasswordInput {...getInputProps(fields.password, { type: 'password' })} key={fields.password.key} label="New Password" autoComplete="new-password" error={fields.password.errors?.[0]} data-autofocus={!askCurrent || undefined} />
            <PasswordInput {...getInputProps(fields.repeat_password, { type: 'password' })} key={fields.repeat_password.key} label="Repeat Password" autoComplete="new-password" error={fields.repeat_password.errors?.[0]} />
            <Group justify="flex-end" mt="sm">
              <Button variant="default" onClick={cancel}>
                Cancel
              </Button>
              <Button type="submit" loading={setting.busy}>
                {action}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Paper>
  );
}
