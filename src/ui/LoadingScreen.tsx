import { Center, Loader, Stack, Text } from '@mantine/core';

/** A spinner with its reason: the whole page while accounts load or the vault connects (spec §2). */
export function LoadingScreen({ label = 'Loading...', inline = false }: { label?: string; inline?: boolean }) {
  return (
    <Center {...(inline ? { py: 64 } : { h: '100dvh' })} role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader />
        <Text c="dimmed" size="sm">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}

/** The same inside a page (an admin screen loading its record). */
export const InlineLoading = ({ label }: { label: string }) => <LoadingScreen label={label} inline />;
