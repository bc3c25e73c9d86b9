import { Alert, Anchor, Button, Group, PinInput, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { OTP_LENGTH, verificationStatusSchema } from '../../../contract/verification';
import { callApi } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { useSession } from '../../app/session-context';
import { VerifyFrame } from './VerifyFrame';

type Notice = { kind: 'error' | 'info'; message: string } | null;

/** The code from the mail; the right one moves the flow on by itself (the profile changes). */
export function OtpPage() {
  const session = useSession();
  const { profile } = useSnapshot(session.state);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);

  const confirm = async () => {
    setBusy(true);
    setNotice(null);
    try {
      await callApi(session.connection, 'POST', '/api/v1/auth/email/otp', verificationStatusSchema, { otp: code });
      await session.authenticate();
    } catch (error) {
      console.error('Confirming the code failed', error);
      setNotice({ kind: 'error', message: errorMessage(error) });
      setCode('');
    } finally {
      setBusy(false);
    }
  };

  const resend = async () => {
    setNotice(null);
    try {
      await callApi(session.connection, 'POST', '/api/v1/auth/email', verificationStatusSchema);
      setNotice({ kind: 'info', message: 'A new code is on its way.' });
    } catch (error) {
      console.error('Requesting a new code failed', error);
      setNotice({ kind: 'error', message: errorMessage(error) });
    }
  };

  return (
    <VerifyFrame step="email" title="Enter the code" subtitle={`We sent a ${OTP_LENGTH}-digit code to ${profile?.email ?? 'your email'}. It is valid for 10 minutes.`}>
      <Stack gap="md">
        {notice && (
          <Alert color={notice.kind === 'error' ? 'red' : 'blue'} variant="light" role={notice.kind === 'error' ? 'alert' : 'status'}>
            {notice.message}
          </Alert>
        )}
        <Group justify="center">
          <PinInput length={OTP_LENGTH} type="number" oneTimeCode value={code} onChange={setCode} size="lg" ariaLabel="Verification code" autoFocus />
        </Group>
        <Button onClick={() => void confirm()} disabled={code.length !== OTP_LENGTH} loading={busy} size="md">
          Verify
        </Button>
        <Text size="sm" ta="center" c="dimmed">
          No mail?{' '}
          <Anchor component="button" type="button" size="sm" onClick={() => void resend()}>
            Send a new code
          </Anchor>
        </Text>
      </Stack>
    </VerifyFrame>
  );
}
