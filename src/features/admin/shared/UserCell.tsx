import { Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { useSession } from '../../../app/session-context';
import { AccountAvatar } from '../../../ui/AccountAvatar';
import { AnchorLink } from '../../../ui/links';

/**
 * A user cell of an admin table: avatar, name linking to the user, '(You)' on the signed-in user's
 * rows. Wide enough that a usual name is not broken inside a word while the date columns have room.
 */
export function UserCell({ userId, user, extra }: { userId: string; user: { full_name: string; profile_picture: string | null }; extra?: ReactNode }) {
  const { profile } = useSnapshot(useSession().state);
  return (
    <Group gap="xs" wrap="nowrap" miw={{ base: 0, sm: 160 }}>
      <AccountAvatar src={user.profile_picture} name={user.full_name} decorative radius="xl" size={30} />
      <div>
        <AnchorLink to="/admin/users/view/$userId" params={{ userId }} size="sm">
          {user.full_name}
        </AnchorLink>
        {userId === profile?.id && (
          <Text span size="sm" c="dimmed">
            {' '}
            (You)
          </Text>
        )}
        {extra}
      </div>
    </Group>
  );
}
