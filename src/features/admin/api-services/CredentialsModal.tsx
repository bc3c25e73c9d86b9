import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { CopyButton } from '../../../ui/CopyButton';

export type Credentials = { client_id: string; client_secret: string };

/** Saves the credentials as credentials.json in the browser's downloads. */
function download(credentials: Credentials): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(credentials, null, 2)], { type: 'application/json' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: 'credentials.json' });
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** 'New Credentials': the only time the secret is ever shown. */
export function CredentialsModal({ credentials, onClose }: { credentials: Credentials | null; onClose: () => void }) {
  return (
    <Modal opened={credentials !== null} onClose={onClose} title="New Credentials" centered size="lg" closeOnClickOutside={false}>
      {credentials && (
        <Stack>
          <Text size="sm" c="dimmed">
            Copy the client secret now: it is shown only this once.
          </Text>
          <TextInput label="Client ID" value={credentials.client_id} readOnly rightSection={<CopyButton value={credentials.client_id} label="Copy Client ID" />} />
          <TextInput label="Client Secret" value={credentials.client_secret} readOnly rightSection={<CopyButton value={credentials.client_secret} label="Copy Client Secret" />} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button onClick={() => download(credentials)}>Download</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
