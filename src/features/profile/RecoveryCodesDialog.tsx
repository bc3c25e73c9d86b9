import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useSnapshot } from 'valtio';
import { useSession } from '../../app/session-context';
import { COPY_FAILED, useCopy } from '../../ui/use-copy';
import classes from './RecoveryCodesDialog.module.css';

/** Recovery codes, shown once: to copy, download or write down. However the dialog closes, it is done. */
export function RecoveryCodesDialog({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const session = useSession();
  const { activeAccount } = useSnapshot(session.state);
  // Several accounts can share a device: the file says whose codes they are.
  const text = [`Home Guard recovery codes for ${activeAccount?.email ?? 'your account'}`, 'Each one signs in once in place of a code from your authenticator app.', '', ...codes, ''].join('\n');

  const { outcome, copy } = useCopy(text);
  const download = () => {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    link.download = 'home-guard-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(link.href);
  };

  return (
    <Modal opened onClose={onDone} title="Save your recovery codes" centered size="md">
      <Stack gap="sm">
        <Text size="sm">Keep these recovery codes somewhere safe, such as a password manager. If you lose your phone, each one signs you in once in place of a code from your app. They are not shown again.</Text>
        <List aria-label="Recovery codes" listStyleType="none" className={classes.codes}>
          {codes.map((code) => (
            <List.Item key={code}>{code}</List.Item>
          ))}
        </List>
        <Group justify="space-between" mt="sm">
          <Group gap="xs">
            <Button variant="default" onClick={copy}>
              {outcome === 'copied' ? 'Copied' : 'Copy'}
            </Button>
            <Button variant="default" onClick={download}>
              Download
            </Button>
          </Group>
          <Button onClick={onDone}>Done</Button>
        </Group>
        {outcome === 'failed' && (
          <Text size="sm" c="red" role="alert">
            {COPY_FAILED} Or download them.
          </Text>
        )}
      </Stack>
    </Modal>
  );
}
