import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import type { z } from 'zod';
import type { credentialsSchema } from '../../../../contract/services';
import { CopyButton } from '../../../ui/CopyButton';

export type Credentials = z.infer<typeof credentialsSchema>;

/** Saves the credentials as credentials.json in the browser's downloads. */
function download(credentials: Credentials): void {
  const saved = credentials.client_secret === null ? { client_id: credentials.client_id } : credentials;
  const url = URL.createObjectURL(new Blob([JSON.stringify(saved, null, 2)], { type: 'application/json' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: 'credentials.json' });
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** 'New Credentials': the only time the secret is ever shown. A public client has only its client ID. */
export function CredentialsModal({ credentials, onClose }: { credentials: Credentials | null; onClose: () => void }) {
  return (
    <Modal opened={credentials !== null} onClose={onClose} title="New Credentials" centered size="lg" closeOnClickOutside={false}>
      {credentials && (
        <Stack>
          <Text size="sm" c="dimmed">
            {credentials.client_secret === null ? 'A public client has no secret: give the app its client ID, and have it use PKCE.' : 'Copy the client secret now: it is shown only this once.'}
          </Text>
          <TextInput label="Client ID" value={credentials.client_id} readOnly rightSection={<CopyButton value={credentials.client_id} label="Copy Client ID" />} />
          {credentials.client_secret !== null && (
            <TextInput label="Client Secret" value={credentials.client_secret} readOnly rightSection={<CopyButton value={credentials.client_secret} label="Copy Client Secret" />} />
          )}
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
