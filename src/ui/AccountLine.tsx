import { Group, Text } from '@mantine/core';
import { AccountAvatar } from './AccountAvatar';
import { EmailAddress } from './EmailAddress';

/** An account as a line: picture, name, email (the picker, the consent screen, the review step). */
export function AccountLine({ label, email, picture, size }: { label: string; email: string; picture: string | null | undefined; size?: number }) {
  return (
    <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
      <AccountAvatar src={picture} name={label} decorative radius="xl" {...(size ? { size } : {})} />
      <div style={{ minWidth: 0 }}>
        {/* Both whole, wrapping if need be: a name cut short ("Bob Buil…") hid who it is, and an email's end tells two similar accounts apart ("…@e…" did not). */}
        <Text fw={600}>{label}</Text>
        <Text size="sm" c="dimmed" className="account-email">
          <EmailAddress email={email} />
        </Text>
      </div>
    </Group>
  );
}
