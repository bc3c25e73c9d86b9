import { Button, Stack, TextInput } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { verificationStatusSchema } from '../../../contract/verification';
import { callApi } from '../../api/client';
import { useSession } from '../../app/session-context';
import { AnchorLink } from '../../ui/links';
import { OutcomeAlert } from '../../ui/OutcomeAlert';
import { useAsyncAction } from '../../ui/use-async-action';
import { maskEmail } from './verify-steps';
import { VerifyFrame } from './VerifyFrame';

/** Step 1: confirm the address by typing it, then get a code by mail. */
export function EmailStepPage() {
  const session = useSession();
  const { profile } = useSnapshot(session.state);
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const sending = useAsyncAction('Requesting the code');
  const email = profile?.email ?? '';
  const confirmed = typed === email && email !== '';
  // The address must be typed exactly (spec §9); typed in full and not, Next alone would just stay
  // grey. Accounts keep their address in small letters, however it was registered.
  const mismatch = !confirmed && email !== '' && typed.trim().length >= email.length ? (typed.trim().toLowerCase() === email ? 'Type it in small letters and without spaces, as your account has it' : 'This is not the email of your account') : undefined;

  const send = () =>
    sending.run(async () => {
      await callApi(session.connection, 'POST', '/api/v1/auth/email', verificationStatusSchema);
      await navigate({ to: '/verify/email/otp' });
    });

  return (
    <VerifyFrame step="email" title="Verify your email" subtitle="Type your email address to confirm it is yours; we will send a 6-digit code to it.">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (confirmed && !sending.busy) void send();
        }}
      >
        <Stack gap="md">
          <OutcomeAlert outcome={sending.outcome} />
          <TextInput label="Email" type="email" value={typed} onChange={(event) => setTyped(event.currentTarget.value)} placeholder={maskEmail(email)} autoComplete="email" error={mismatch} />
          <Button type="submit" disabled={!confirmed} loading={sending.busy} size="md">
            Next
          </Button>
          <AnchorLink to="/verify/email/otp" size="sm" ta="center">
            I already have a code
          </AnchorLink>
        </Stack>
      </form>
    </VerifyFrame>
  );
}
