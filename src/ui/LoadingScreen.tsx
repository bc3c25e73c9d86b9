import { Center, Loader, Stack, Text } from '@mantine/core';

/** Full-page spinner while accounts load, the account authenticates or the vault connects (spec §2). */
export function LoadingScreen({ label = 'Loading...' }: { label?: string }) {
  return (
    <Center h="100dvh" role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader />
        <Text c="dimmed" size="sm">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}

/** The same, inside a page (an admin screen loading its record). */
export function InlineLoading({ label }: { label: string }) {
  return (
    <Center py={64} role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader />
        <Text c="dimmed" size="sm">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}
