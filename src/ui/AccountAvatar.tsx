import { Avatar, type AvatarProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { UserIcon } from './icons';

/**
 * The profile picture, or the default user icon when there is none. `decorative` when the name is
 * written right beside it: the picture then has an empty alt, so screen readers do not say it twice.
 */
export function AccountAvatar({ src, name, decorative, children, ...props }: AvatarProps & { src: string | null | undefined; name: string; decorative?: boolean; children?: ReactNode }) {
  return (
    <Avatar src={src ?? null} alt={decorative ? '' : name} color="blue" {...props}>
      {/* Half the circle: 18 px alone was a speck in the 72–128 px avatars of the larger pages. */}
      {children ?? <UserIcon size={typeof props.size === 'number' ? Math.round(props.size / 2) : 18} />}
    </Avatar>
  );
}
