import { Center, Paper, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

/** A card in the middle of an otherwise empty page: sign-in, registration, verification. */
export function CenteredCard({ width = 440, children }: { width?: number; children: ReactNode }) {
  return (
    <Center component="main" mih="100dvh" p="md" bg="var(--mantine-color-gray-0)">
      <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', sm: 'xl' }} w="100%" maw={width}>
        <Stack gap="lg">{children}</Stack>
      </Paper>
    </Center>
  );
}
