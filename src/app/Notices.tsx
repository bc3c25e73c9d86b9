import { Alert, Button, Group, Paper, Text } from '@mantine/core';
import { useNetwork } from '@mantine/hooks';
import { OfflineIcon } from '../ui/icons';

/** Shown while the device has no network: the app works from its saved state. */
export function OfflineNotice() {
  const { online } = useNetwork();
  if (online) return null;
  return (
    <Alert role="status" color="yellow" variant="filled" radius={0} icon={<OfflineIcon size={18} />} py={8} title={null}>
      You are offline. Home Guard shows your saved accounts; signing in and changes wait for the connection.
    </Alert>
  );
}

/** Shown when no service worker controls this tab and the broker runs in the page itself. */
export function PageBrokerNotice() {
  return (
    <Alert role="status" color="gray" variant="light" radius={0} py={6}>
      <Text size="xs">Offline support is not active in this tab (reload to enable it). Your accounts still work here.</Text>
    </Alert>
  );
}

export function UpdatePrompt({ onReload }: { onReload: () => void }) {
  return (
    <Paper withBorder shadow="lg" radius="md" p="sm" pos="fixed" bottom={16} right={16} style={{ zIndex: 1000, maxWidth: 360 }} role="alert">
      <Group gap="sm" wrap="nowrap">
        <Text size="sm">A new version of Home Guard is available.</Text>
        <Button size="xs" onClick={onReload}>
          Reload to update
        </Button>
      </Group>
    </Paper>
  );
}
