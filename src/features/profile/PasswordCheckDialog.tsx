import { getFormProps, getInputProps } from '@conform-to/react';
import { Button, Group, Modal, PasswordInput, Stack, Text, type MantineColor } from '@mantine/core';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import { OutcomeAlert } from '../../ui/OutcomeAlert';
import { useAsyncAction } from '../../ui/use-async-action';
import { useSchemaForm } from '../../ui/use-schema-form';

type Props = {
  id: string;
  title: string;
  /** What is about to happen, in a sentence or two. */
  children: ReactNode;
  submitLabel: string;
  color?: MantineColor;
  /** What the action is, for the log when it fails ("Turning off two-step sign-in"). */
  action: string;
  /** The request's body schema: `current_password`, as the server checks it. */
  schema: z.ZodType<{ current_password: string }>;
  onSubmit: (body: { current_password: string }) => Promise<void>;
  onClose: () => void;
};

/**
 * A change that asks for the password first, so whoever holds only this device's session cannot
 * make it. A wrong password is the server's answer, shown above the field.
 */
export function PasswordCheckDialog({ id, title, children, submitLabel, color, action, schema, onSubmit, onClose }: Props) {
  const submitting = useAsyncAction(action);
  const [form, fields] = useSchemaForm({ id, schema, onValid: (body) => submitting.run(() => onSubmit(body)) });

  return (
    <Modal opened onClose={onClose} title={title} centered>
      <form {...getFormProps(form)}>
        <Stack gap="sm">
          <OutcomeAlert outcome={submitting.outcome} />
          <Text size="sm">{children}</Text>
          <PasswordInput {...getInputProps(fields.current_password, { type: 'password' })} key={fields.current_password.key} label="Current Password" autoComplete="current-password" error={fields.current_password.errors?.[0]} data-autofocus />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color={color} loading={submitting.busy}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
