import { Group, Text } from '@mantine/core';
import { AccountAvatar } from './AccountAvatar';

/** An account as a line: picture, name, email (the picker, the consent screen, the review step). */
export function AccountLine({ label, email, picture, size }: { label: string; email: string; picture: string | null | undefined; size?: number }) {
  return (
    <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
      <AccountAvatar src={picture} name={label} decorative radius="xl" {...(size ? { size } : {})} />
      <div style={{ minWidth: 0 }}>
        <Text fw={600} truncate>
          {label}
        </Text>
        {/* Whole, wrapping if need be: its end tells two similar accounts apart ("…@e…" did not). */}
        <Text size="sm" c="dimmed">
          {email}
        </Text>
      </div>
    </Group>
  );
}
