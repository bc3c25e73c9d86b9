import { Button, Center, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { errorMessage } from '../api/errors';
import { AlertIcon, OfflineIcon } from '../ui/icons';
import { useInShell } from '../ui/in-shell';
import { ButtonLink } from '../ui/links';
import { useRetryOnceOnline } from '../ui/RetryCard';
import { ProfileUnavailable } from './guards';
import { useSession } from './session-context';

// What a failed `import()` of a page's code says: Chromium, Firefox, Safari, then Vite's own.
const CODE_NOT_LOADED = /dynamically imported module|Importing a module script failed|Unable to preload CSS/;

/** Whether the page failed for want of the server: its code, or the account's profile, did not load. */
export function needsConnection(error: unknown): boolean {
  return error instanceof ProfileUnavailable || (error instanceof Error && CODE_NOT_LOADED.test(error.message)) || !navigator.onLine;
}

/**
 * A page that could not open, in place of the page (the router's error boundary). Offline, an
 * admin page not opened on this device before has no code here yet: said as such, with Try
 * again, and tried again by itself once the connection is back. Anything else says what failed.
 */
export function PageError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const session = useSession();
  const inShell = useInShell();
  const offline = needsConnection(error);
  const retry = async () => {
    await session.reloadProfile();
    reset();
    await router.invalidate();
  };
  useRetryOnceOnline(() => void (offline && retry()));
  return (
    <Center component={inShell ? 'div' : 'main'} mih="60dvh" p="md">
      <Stack align="center" ta="center" gap="sm" maw={440}>
        <ThemeIcon size={56} radius="xl" color={offline ? 'yellow' : 'red'} variant="light">
          {offline ? <OfflineIcon size={30} /> : <AlertIcon size={30} />}
        </ThemeIcon>
        <Title order={1} fz={24}>
          {offline ? 'Home Guard cannot be reached' : 'This page could not be opened'}
        </Title>
        <Text c="dimmed">{offline ? 'This page needs the connection to open. It opens as soon as the connection is back.' : errorMessage(error)}</Text>
        <Group mt="sm" justify="center">
          <Button onClick={() => void retry()}>Try again</Button>
          <ButtonLink to="/" variant="default">
            Go home
          </ButtonLink>
        </Group>
      </Stack>
    </Center>
  );
}
