import { Code, Text } from '@mantine/core';
import { LockIcon } from '../ui/icons';
import { NoticeCard } from '../ui/NoticeCard';

/**
 * Shown instead of the app on plain HTTP at any address but localhost: the browser withholds Web
 * Crypto and service workers there, so the token vault cannot open. Said plainly, with the fix,
 * rather than as the error the vault would throw.
 */
export function InsecureConnectionScreen() {
  return (
    <NoticeCard icon={<LockIcon size={30} />} colour="orange" title="Home Guard needs a secure connection">
      <Text c="dimmed">
        This page was opened over plain HTTP, at <Code>{window.location.host}</Code>. Browsers give Home Guard what it keeps your sign-ins safe with (encrypted storage on this device and its
        service worker) only over HTTPS, or at localhost on the computer it runs on.
      </Text>
      <Text size="sm" c="dimmed">
        Open Home Guard at its https:// address. If it has none yet, its administrator can put it behind a reverse proxy with a certificate (such as Caddy, Traefik or nginx) and set{' '}
        <Code>PUBLIC_URL</Code> to that address.
      </Text>
    </NoticeCard>
  );
}
