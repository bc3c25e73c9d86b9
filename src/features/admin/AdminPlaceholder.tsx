import { Stack, Text, Title } from '@mantine/core';

/** An admin screen whose content arrives with the admin-area feature. */
export function AdminPlaceholder({ title }: { title: string }) {
  return (
    <Stack gap="xs">
      <Title order={1} fz={28}>
        {title}
      </Title>
      <Text c="dimmed">This part of the admin area is not available yet.</Text>
    </Stack>
  );
}
