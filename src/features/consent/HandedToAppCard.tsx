import { Button, Group, Text } from '@mantine/core';
import { ExternalIcon } from '../../ui/icons';
import { ButtonLink } from '../../ui/links';
import { NoticeCard } from '../../ui/NoticeCard';

/**
 * After the answer went to an app's own scheme (RFC 8252): the app opens beside the browser,
 * and this tab stays, so it says what happened instead of waiting forever.
 */
export function HandedToAppCard({ service, url }: { service?: string; url: string }) {
  const name = service ?? 'the app';
  const open = `Open ${name}`;
  return (
    <NoticeCard icon={<ExternalIcon size={30} />} colour="blue" title={`Sent to ${name}`}>
      <Text c="dimmed">Home Guard handed the sign-in to {service ? `the ${service} app` : 'the app'}. You can close this tab.</Text>
      <Text size="sm" c="dimmed">
        If the app did not open, check that it is installed on this device, then press {open}.
      </Text>
      <Group mt="sm" justify="center">
        <Button component="a" href={url}>
          {open}
        </Button>
        <ButtonLink to="/" variant="default">
          Go to Home Guard
        </ButtonLink>
      </Group>
    </NoticeCard>
  );
}
