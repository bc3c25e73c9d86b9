import { Avatar, type AvatarProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { UserIcon } from './icons';

/** The profile picture, or the default user icon when there is none. */
export function AccountAvatar({ src, name, children, ...props }: AvatarProps & { src: string | null | undefined; name: string; children?: ReactNode }) {
  return (
    <Avatar src={src ?? null} alt={name} color="blue" {...props}>
      {children ?? <UserIcon size={18} />}
    </Avatar>
  );
}
