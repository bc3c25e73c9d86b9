import { Button, Text } from '@mantine/core';
import { AuthCard } from '../auth/AuthCard';

/** /verify: the welcome page of the verification flow (its steps arrive with the verification feature). */
export function VerifyWelcomePage() {
  return (
    <AuthCard title="Verify your account" subtitle="Before you use Home Guard, confirm your email address and add a profile picture.">
      <Text size="sm" c="dimmed" ta="center">
        It takes about a minute.
      </Text>
      <Button size="md" fullWidth disabled>
        Start Verification
      </Button>
    </AuthCard>
  );
}
