import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useNetwork } from '@mantine/hooks';
import { createContext, useContext, useLayoutEffect, useState } from 'react';
import { OfflineIcon } from '../ui/icons';
import { useOfflineSupport } from './service-worker';

/**
 * The app's standing notices: offline (the app works from its saved state), and no service worker
 * for this tab (the broker runs in the page itself). Nothing is said while a first install is
 * still under way: the worker takes the tab over by itself. A full-width band at the top of the
 * page, or, inside the signed-in shell (whose fixed header would cover that band), a block at the
 * top of its main area.
 */
export function AppNotices({ pageBroker, inShell = false }: { pageBroker: boolean; inShell?: boolean }) {
  const { online } = useNetwork();
  const offlineSupport = useOfflineSupport();
  const workerMissing = pageBroker && (offlineSupport === 'reload' || offlineSupport === 'unavailable');
  if (online && !workerMissing) return null;
  const radius = inShell ? 'md' : 0;
  return (
    <Stack gap="xs" mb={inShell ? 'md' : 0}>
      {!online && (
        <Alert role="status" color="yellow" variant="filled" radius={radius} icon={<OfflineIcon size={18} />} py={8} title={null}>
          You are offline. Home Guard shows your saved accounts; signing in and changes wait for the connection.
        </Alert>
      )}
      {workerMissing && (
        <Alert role="status" color="gray" variant="light" radius={radius} py={6}>
          <Text size="xs">
            {offlineSupport === 'reload'
              ? 'Offline support is not active in this tab (reload to enable it). Your accounts still work here.'
              : 'This browser does not allow offline support for Home Guard. Your accounts still work in this tab.'}
          </Text>
        </Alert>
      )}
    </Stack>
  );
}

/** Set by App: true while the shell shows the notices, so the top band steps aside. */
export const NoticesInShell = createContext<(inShell: boolean) => void>(() => {});

/** Called by the shell, which then renders AppNotices itself (before the first paint, so no flash). */
export function useNoticesInShell(): void {
  const place = useContext(NoticesInShell);
  useLayoutEffect(() => {
    place(true);
    return () => place(false);
  }, [place]);
}

export function UpdatePrompt({ onReload }: { onReload: () => void }) {
  // On a phone it covers the bottom of the page: Later puts it away until the next load, which
  // runs the new version anyway. Under dialogs (Mantine's are at 200), over the page.
  const [later, setLater] = useState(false);
  if (later) return null;
  return (
    <Paper withBorder shadow="lg" radius="md" p="sm" pos="fixed" bottom={16} right={16} style={{ zIndex: 150, maxWidth: 'calc(100vw - 32px)' }} role="alert">
      <Group gap="sm" wrap="wrap" justify="flex-end">
        <Text size="sm" style={{ flexGrow: 1 }}>
          A new version of Home Guard is available.
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="default" onClick={() => setLater(true)}>
            Later
          </Button>
          <Button size="xs" onClick={onReload}>
            Reload to update
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
