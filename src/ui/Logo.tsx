import { Group, Text, ThemeIcon } from '@mantine/core';
import { ShieldIcon } from './icons';

export function Logo() {
  return (
    <Group gap={8} wrap="nowrap">
      <ThemeIcon size={30} radius="md" variant="filled">
        <ShieldIcon size={18} />
      </ThemeIcon>
      <Text fw={700} size="lg">
        Home Guard
      </Text>
    </Group>
  );
}
