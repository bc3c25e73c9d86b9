import { getFormProps, getInputProps } from '@conform-to/react';
import { Anchor, Button, Center, Group, Loader, Modal, PasswordInput, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { errorTextOf } from '../../../contract/errors';
import { twoStepSetupSchema, twoStepTurnedOnSchema, twoStepTurnOnSchema, type TwoStepSetup, type TwoStepStatus, type TwoStepTurnedOn } from '../../../contract/two-step';
import { callApi } from '../../api/client';
import { ApiError } from '../../api/errors';
import { useSession } from '../../app/session-context';
import { AuthenticatorCodeInput } from '../../ui/AuthenticatorCodeInput';
import { CopyButton } from '../../ui/CopyButton';
import { OutcomeAlert } from '../../ui/OutcomeAlert';
import { QrCode } from '../../ui/QrCode';
import { useAsyncAction } from '../../ui/use-async-action';
import { useSchemaForm } from '../../ui/use-schema-form';
import { RecoveryCodesDialog } from './RecoveryCodesDialog';

/** What the person types: the app's code, and the password, which the server checks first (ASVS 3.7.1). */
const turnOnFormSchema = twoStepTurnOnSchema.pick({ code: true, current_password: true });

/** "ABCD EFGH ...": the setup key in groups of four, easier to type into an app by hand. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/**
 * Sets up an authenticator app: a new secret as a QR code and as text, then a code that proves the
 * app has it, with the password, as turning it off asks: whoever holds only this device's session
 * cannot enrol an app of their own. Once on, it shows the first recovery codes; closing then is
 * done, however it closes.
 */
export function TurnOnTwoStepDialog({ onClose, onDone }: { onClose: () => void; onDone: (status: TwoStepStatus) => void }) {
  const session = useSession();
  const [setup, setSetup] = useState<TwoStepSetup | null>(null);
  const [turnedOn, setTurnedOn] = useState<TwoStepTurnedOn | null>(null);
  // The server refused the key shown (a newer setup elsewhere replaced it, or it is an hour old).
  const [keyStale, setKeyStale] = useState(false);
  const preparing = useAsyncAction('Setting up two-step sign-in');
  const turningOn = useAsyncAction('Turning on two-step sign-in');
  // On a phone the app is on this device: a link opens it with the secret filled in.
  const [onPhone] = useState(() => window.matchMedia('(pointer: coarse)').matches);

  const prepare = () => void preparing.run(async () => setSetup(await callApi(session.connection, 'POST', '/api/v1/auth/two-step/setup', twoStepSetupSchema)));
  useEffect(prepare, [session]);

  const [form, fields] = useSchemaForm({
    id: 'turn-on-two-step',
    schema: turnOnFormSchema,
    onValid: ({ code, current_password }) =>
      setup &&
      turningOn.run(async () => {
        try {
          setTurnedOn(await callApi(session.connection, 'PUT', '/api/v1/auth/two-step', twoStepTurnedOnSchema, { secret: setup.secret, code, current_password }));
        } catch (error) {
          setKeyStale(error instanceof ApiError && errorTextOf(error.text).field === 'secret');
          throw error;
        }
      }),
  });
  const startAgain = () => {
    setKeyStale(false);
    setSetup(null);
    turningOn.setOutcome(null);
    form.reset();
    prepare();
  };

  if (turnedOn) return <RecoveryCodesDialog codes={turnedOn.recovery_codes} onDone={() => onDone(turnedOn)} />;

  return (
    // Once the secret is shown, a tap beside the dialog must not throw it away: the app may hold it
    // already, and reopening makes a new one whose codes that entry cannot give. Cancel or Escape still close.
    <Modal opened onClose={onClose} title="Turn on two-step sign-in" centered size="md" closeOnClickOutside={!setup}>
      <Stack gap="md">
        <OutcomeAlert outcome={preparing.outcome} />
        {preparing.outcome && (
          <Button variant="default" onClick={prepare} style={{ alignSelf: 'flex-start' }}>
            Try again
          </Button>
        )}
        {!setup && preparing.busy && (
          <Center h={184}>
            <Loader size="sm" aria-label="Preparing" />
          </Center>
        )}
        {setup && (
          <>
            <Text size="sm">1. Scan this QR code with an authenticator app, such as Aegis, Google Authenticator, Microsoft Authenticator, 1Password or Bitwarden.</Text>
            <Center>
              <QrCode value={setup.uri} label="QR code for your authenticator app" />
            </Center>
            {onPhone && (
              <Anchor href={setup.uri} size="sm" ta="center">
                Open in your authenticator app
              </Anchor>
            )}
            {/* A text area, so the 39 characters wrap on a phone instead of scrolling out of sight. */}
            <Textarea label="Or type this setup key" value={grouped(setup.secret)} readOnly autosize minRows={1} styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} rightSection={<CopyButton value={setup.secret} label="Copy setup key" />} />
            <form {...getFormProps(form)}>
              <Stack gap="sm">
                <AuthenticatorCodeInput key={fields.code.key} field={fields.code} label="2. Type the 6-digit code the app shows" />
                <PasswordInput {...getInputProps(fields.current_password, { type: 'password' })} key={fields.current_password.key} label="3. Type your current password" autoComplete="current-password" error={fields.current_password.errors?.[0]} />
                {/* Below the fields it is about and above the buttons: above step 2 it scrolled them out of the dialog on a laptop. */}
                <OutcomeAlert outcome={turningOn.outcome} />
                {keyStale && (
                  <Button variant="default" onClick={startAgain} style={{ alignSelf: 'flex-start' }}>
                    Start again
                  </Button>
                )}
                <Group justify="flex-end" mt="sm">
                  <Button variant="default" onClick={onClose}>
                    Cancel
                  </Button>
                  <Button type="submit" loading={turningOn.busy}>
                    Turn On
                  </Button>
                </Group>
              </Stack>
            </form>
          </>
        )}
      </Stack>
    </Modal>
  );
}
