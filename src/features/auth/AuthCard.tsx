import { Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { CenteredCard } from '../../ui/CenteredCard';
import { ShieldIcon } from '../../ui/icons';

/** The card every sign-in page sits in: icon, heading, subtitle, content. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <CenteredCard>
      <Stack gap={6} align="center" ta="center">
        <ThemeIcon size={52} radius="xl" variant="light">
          <ShieldIcon size={30} />
        </ThemeIcon>
        <Title order={1} fz={26}>
          {title}
        </Title>
        {subtitle && (
          <Text c="dimmed" size="sm">
            {subtitle}
          </Text>
        )}
      </Stack>
      {children}
    </CenteredCard>
  );
}
