import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { twoStepStatusSchema, twoStepTurnOffSchema, type TwoStepStatus } from '../../../contract/two-step';
import { callApi } from '../../api/client';
import { useSession } from '../../app/session-context';
import { OutcomeAlert } from '../../ui/OutcomeAlert';
import { useAsyncAction } from '../../ui/use-async-action';

/** Turning two-step sign-in off asks for the password: whoever holds only this device's session cannot. */
export function TurnOffTwoStepDialog({ onClose, onDone }: { onClose: () => void; onDone: (status: TwoStepStatus) => void }) {
  const session = useSession();
  const turningOff = useAsyncAction('Turning off two-step sign-in');
  const [form, fields] = useForm({
    id: 'turn-off-two-step',
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: twoStepTurnOffSchema }),
    onSubmit: (event, { submission }) => {
      event.preventDefault();
      if (submission?.status !== 'success') return;
      const body = submission.value;
      void turningOff.run(async () => onDone(await callApi(session.connection, 'DELETE', '/api/v1/auth/two-step', twoStepStatusSchema, body)));
    },
  });

  return (
    <Modal opened onClose={onClose} title="Turn off two-step sign-in" centered>
      <form {...getFormProps(form)}>
        <Stack gap="sm">
          <OutcomeAlert outcome={turningOff.outcome} />
          <Text size="sm">Signing in will ask for your password only. You can remove Home Guard from your authenticator app afterwards.</Text>
          <PasswordInput {...getInputProps(fields.current_password, { type: 'password' })} key={fields.current_password.key} label="Current Password" autoComplete="current-password" error={fields.current_password.errors?.[0]} data-autofocus />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={turningOff.busy}>
              Turn Off
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
