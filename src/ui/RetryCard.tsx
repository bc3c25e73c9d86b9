import { Button, Group, Text } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { OfflineIcon } from './icons';
import { ButtonLink } from './links';
import { NoticeCard } from './NoticeCard';

type Props = { title: string; message: string; detail: string; onRetry: () => void };

/**
 * A step that needs the server did not get through (offline, or the server is down): said as
 * such, not as a refusal, with Try again. Coming back online tries again by itself.
 */
export function RetryCard({ title, message, detail, onRetry }: Props) {
  useWindowEvent('online', onRetry);
  return (
    <NoticeCard icon={<OfflineIcon size={30} />} colour="yellow" title={title}>
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
    </NoticeCard>
  );
}
