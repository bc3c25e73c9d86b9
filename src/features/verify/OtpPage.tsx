import { Anchor, Button, Group, PinInput, Stack, Text } from '@mantine/core';
import { useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { OTP_LENGTH, OTP_LIFETIME_MINUTES, verificationStatusSchema } from '../../../contract/verification';
import { callApi } from '../../api/client';
import { ApiError } from '../../api/errors';
import { useSession } from '../../app/session-context';
import { OutcomeAlert } from '../../ui/OutcomeAlert';
import { useAsyncAction } from '../../ui/use-async-action';
import { VerifyFrame } from './VerifyFrame';

// Six large boxes are 360 px wide, more than a phone's card holds: they narrow to fit it, no wider than large.
const SHRINKING_PINS = { root: { flexWrap: 'nowrap', width: '100%', justifyContent: 'center' }, pinInput: { flex: '0 1 var(--pin-input-size)', minWidth: 0 }, input: { width: '100%' } } as const;

/** The code from the mail; the right one moves the flow on by itself (the profile changes). */
export function OtpPage() {
  const session = useSession();
  const { profile } = useSnapshot(session.state);
  const [code, setCode] = useState('');
  const pins = useRef<HTMLDivElement>(null);
  const action = useAsyncAction('Email verification');

  const confirm = () =>
    action.run(async () => {
      try {
        await callApi(session.connection, 'POST', '/api/v1/auth/email/otp', verificationStatusSchema, { otp: code });
      } catch (error) {
        // A code judged (wrong, expired) makes room for the next; one that got no answer is kept to send again.
        if (error instanceof ApiError && error.status === 400) {
          setCode('');
          // Verify is disabled now: the first digit is where typing goes on (and its alert is read).
          pins.current?.querySelector('input')?.focus();
        }
        throw error;
      }
      await session.authenticate();
    });

  const resend = () =>
    action.run(async () => {
      try {
        await callApi(session.connection, 'POST', '/api/v1/auth/email', verificationStatusSchema);
      } catch (error) {
        // Verified meanwhile, in another tab: the profile says so, and the flow moves on.
        if (error instanceof ApiError && error.status === 409) await session.authenticate();
        throw error;
      }
      action.setOutcome({ kind: 'info', message: 'A new code is on its way.' });
    });

  return (
    <VerifyFrame step="email" title="Enter the code" subtitle={`We sent a ${OTP_LENGTH}-digit code to ${profile?.email ?? 'your email'}. It is valid for ${OTP_LIFETIME_MINUTES} minutes.`}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (code.length === OTP_LENGTH && !action.busy) void confirm();
        }}
      >
        <Stack gap="md">
          <OutcomeAlert outcome={action.outcome} />
          <Group justify="center" ref={pins}>
            <PinInput length={OTP_LENGTH} type="number" oneTimeCode value={code} onChange={setCode} size="lg" gap="xs" styles={SHRINKING_PINS} getInputProps={(index) => ({ 'aria-label': `Verification code, digit ${index + 1} of ${OTP_LENGTH}` })} autoFocus />
          </Group>
          <Button type="submit" disabled={code.length !== OTP_LENGTH} loading={action.busy} size="md">
            Verify
          </Button>
          <Text size="sm" ta="center" c="dimmed">
            No mail?{' '}
            <Anchor component="button" type="button" size="sm" onClick={() => void resend()}>
              Send a new code
            </Anchor>
          </Text>
        </Stack>
      </form>
    </VerifyFrame>
  );
}
