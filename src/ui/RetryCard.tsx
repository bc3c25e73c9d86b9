import { Button, Group, Text } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import { OfflineIcon } from './icons';
import { ButtonLink } from './links';
import { NoticeCard } from './NoticeCard';

/** `detail`: what went wrong, when it says more than the title. */
type Props = { title: string; message: string; detail?: string | undefined; onRetry: () => void };

/**
 * A step that needs the server did not get through (offline, or the server is down): said as
 * such, not as a refusal, with Try again. Coming back online tries again by itself.
 */
export function RetryCard({ title, message, detail, onRetry }: Props) {
  useRetryOnceOnline(onRetry);
  return (
    <NoticeCard icon={<OfflineIcon size={30} />} colour="yellow" title={title}>
      <Text c="dimmed">{message}</Text>
      {detail && (
        <Text size="sm" c="dimmed">
          {detail}
        </Text>
      )}
      <Group mt="sm">
        <Button onClick={onRetry}>Try again</Button>
        <ButtonLink to="/" variant="default">
          Go to Home Guard
        </ButtonLink>
      </Group>
    </NoticeCard>
  );
}

/**
 * 'online' fires when the page's connection is back, which can be a moment before the service
 * worker's is: a request sent at once may still fail, and leave the card up with no event left to
 * wait for. So the retry waits a second.
 */
const ONLINE_SETTLE_MS = 1_000;

export function useRetryOnceOnline(onRetry: () => void): void {
  const timer = useRef<number | undefined>(undefined);
  useWindowEvent('online', () => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(onRetry, ONLINE_SETTLE_MS);
  });
  useEffect(() => () => window.clearTimeout(timer.current), []);
}
