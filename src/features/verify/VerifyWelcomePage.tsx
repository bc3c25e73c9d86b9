import { Text } from '@mantine/core';
import { ButtonLink } from '../../ui/links';
import { AuthCard } from '../auth/AuthCard';
import { VerifyExit } from './VerifyExit';

/** /verify: the welcome page of the verification flow. */
export function VerifyWelcomePage() {
  return (
    <AuthCard title="Verify your account" subtitle="Before you use Home Guard, confirm your email address and add a profile picture.">
      <Text size="sm" c="dimmed" ta="center">
        It takes about a minute: a code by email, then a picture of you.
      </Text>
      <ButtonLink to="/verify/email" size="md" fullWidth>
        Start Verification
      </ButtonLink>
      <VerifyExit />
    </AuthCard>
  );
}
