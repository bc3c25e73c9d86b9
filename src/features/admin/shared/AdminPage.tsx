import { Breadcrumbs, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { AnchorLink } from '../../../ui/links';

/** The frame of every admin screen: breadcrumb Admin › {title}, heading, actions. */
export function AdminPage({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <Stack gap="md">
      <Breadcrumbs>
        <AnchorLink to="/admin" size="sm">
          Admin
        </AnchorLink>
        <Text size="sm">{title}</Text>
      </Breadcrumbs>
      <Group justify="space-between" align="center">
        <Title order={1} fz={26}>
          {title}
        </Title>
        {actions}
      </Group>
      {children}
    </Stack>
  );
}

/** The 'Search...' box: filters through the server, debounced. */
export function SearchBox({ value, onSearch }: { value: string; onSearch: (search: string) => void }) {
  const [text, setText] = useState(value);
  const debounced = useDebouncedCallback(onSearch, 300);
  return (
    <TextInput
      aria-label="Search"
      placeholder="Search..."
      value={text}
      onChange={(event) => {
        setText(event.currentTarget.value);
        debounced(event.currentTarget.value);
      }}
      maw={360}
    />
  );
}

