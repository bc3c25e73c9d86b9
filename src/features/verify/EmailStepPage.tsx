import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { verificationStatusSchema } from '../../../contract/verification';
import { callApi } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { useSession } from '../../app/session-context';
import { AnchorLink } from '../../ui/links';
import { maskEmail } from './verify-steps';
import { VerifyFrame } from './VerifyFrame';

/** Step 1: confirm the address by typing it, then get a code by mail. */
export function EmailStepPage() {
  const session = useSession();
  const { profile } = useSnapshot(session.state);
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const email = profile?.email ?? '';

  const send = async () => {
    setSending(true);
    setFailure(null);
    try {
      await callApi(session.connection, 'POST', '/api/v1/auth/email', verificationStatusSchema);
      await navigate({ to: '/verify/email/otp' });
    } catch (error) {
      console.error('Requesting the code failed', error);
      setFailure(errorMessage(error));
    } finally {
      setSending(false);
    }
  };

  return (
    <VerifyFrame step="email" title="Verify your email" subtitle="Type your email address to confirm it is yours; we will send a 6-digit code to it.">
      <Stack gap="md">
        {failure && (
          <Alert color="red" variant="light" role="alert">
            {failure}
          </Alert>
        )}
        <TextInput label="Email" type="email" value={typed} onChange={(event) => setTyped(event.currentTarget.value)} placeholder={maskEmail(email)} autoComplete="email" />
        <Button onClick={() => void send()} disabled={typed !== email || email === ''} loading={sending} size="md">
          Next
        </Button>
        <AnchorLink to="/verify/email/otp" size="sm" ta="center">
          I already have a code
        </AnchorLink>
      </Stack>
    </VerifyFrame>
  );
}
