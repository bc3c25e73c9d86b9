import { Code, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { OAuthErrorBody } from '../../../contract/oauth';
import { CenteredCard } from '../../ui/CenteredCard';
import { LockIcon } from '../../ui/icons';
import { ButtonLink } from '../../ui/links';

/** A request we will not send back anywhere (unknown service, unregistered address): said here. */
export function AuthorizationErrorPage({ error }: { error: OAuthErrorBody }) {
  return (
    <CenteredCard>
      <Stack align="center" ta="center" gap="sm">
        <ThemeIcon size={56} radius="xl" color="red" variant="light">
          <LockIcon size={30} />
        </ThemeIcon>
        <Title order={1} fz={24}>
          This sign-in request cannot be used
        </Title>
        <Text c="dimmed">{error.error_description ?? 'The service sent a request Home Guard does not accept.'}</Text>
        <Text size="sm" c="dimmed">
          Tell the administrator of the service you came from. Error: <Code>{error.error}</Code>
        </Text>
        <ButtonLink to="/" variant="light" mt="sm">
          Go to Home Guard
        </ButtonLink>
      </Stack>
    </CenteredCard>
  );
}
