import { Button, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { CenteredCard } from './CenteredCard';
import { OfflineIcon } from './icons';
import { ButtonLink } from './links';

type Props = { title: string; message: string; detail: string; onRetry: () => void };

/**
 * A step that needs the server did not get through (offline, or the server is down): said as
 * such, not as a refusal, with Try again. Coming back online tries again by itself.
 */
export function RetryCard({ title, message, detail, onRetry }: Props) {
  useWindowEvent('online', onRetry);
  return (
    <CenteredCard>
      <Stack align="center" ta="center" gap="sm">
        <ThemeIcon size={56} radius="xl" color="yellow" variant="light">
          <OfflineIcon size={30} />
        </ThemeIcon>
        <Title order={1} fz={24}>
          {title}
        </Title>
        <Text c="dimmed">{message}</Text>
        <Text size="sm" c="dimmed">
          {detail}
        </Text>
        <Group mt="sm">
          <Button onClick={onRetry}>Try again</Button>
          <ButtonLink to="/" variant="default">
            Go to Home Guard
          </ButtonLink>
        </Group>
      </Stack>
    </CenteredCard>
  );
}
