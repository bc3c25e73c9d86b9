import { Code, Text } from '@mantine/core';
import type { OAuthErrorBody } from '../../../contract/oauth';
import { LockIcon } from '../../ui/icons';
import { ButtonLink } from '../../ui/links';
import { NoticeCard } from '../../ui/NoticeCard';

/** A request we will not send back anywhere (unknown service, unregistered address): said here. */
export function AuthorizationErrorPage({ error }: { error: OAuthErrorBody }) {
  return (
    <NoticeCard icon={<LockIcon size={30} />} colour="red" title="This sign-in request cannot be used">
      <Text c="dimmed">{error.error_description ?? 'The service sent a request Home Guard does not accept.'}</Text>
      <Text size="sm" c="dimmed">
        Tell the administrator of the service you came from. Error: <Code>{error.error}</Code>
      </Text>
      <ButtonLink to="/" variant="light" mt="sm">
        Go to Home Guard
      </ButtonLink>
    </NoticeCard>
  );
}
