import { Button, Group, Modal, Text } from '@mantine/core';

type Props = {
  opened: boolean;
  title: string;
  /** What confirming does, and what cannot be undone. */
  message: string;
  confirmLabel: string;
  onCancel: () => void;
  onConfirm: () => void;
};

/** "Are you sure?" before something that cannot be taken back: Cancel, or the red button. */
export function ConfirmDialog({ opened, title, message, confirmLabel, onCancel, onConfirm }: Props) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered>
      <Text size="sm">{message}</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button color="red" onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
