import { Stack, ThemeIcon, Title, type MantineColor } from '@mantine/core';
import type { ReactNode } from 'react';
import { CenteredCard } from './CenteredCard';

/** A page that says one thing: an icon, a title, then what it means and what to do next. */
export function NoticeCard({ icon, colour, title, children }: { icon?: ReactNode; colour?: MantineColor; title: string; children: ReactNode }) {
  return (
    <CenteredCard>
      <Stack align="center" ta="center" gap="sm">
        {icon && (
          <ThemeIcon size={56} radius="xl" color={colour} variant="light">
            {icon}
          </ThemeIcon>
        )}
        <Title order={1} fz={24}>
          {title}
        </Title>
        {children}
      </Stack>
    </CenteredCard>
  );
}
