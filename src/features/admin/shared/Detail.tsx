import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One labelled value of a record's view: a small uppercase label above it. */
export function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <div>{children}</div>
    </div>
  );
}
