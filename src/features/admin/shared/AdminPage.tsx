import { Breadcrumbs, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useEffect, useRef, useState } from 'react';
import { SEARCH_MAX_LENGTH } from '../../../../contract/fields';
import { AnchorLink } from '../../../ui/links';

/** The frame of every admin screen: breadcrumb Admin › {title}, heading, actions. */
export function AdminPage({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <Stack gap="md">
      <nav aria-label="Breadcrumb">
        <Breadcrumbs separator="›" style={{ flexWrap: 'nowrap' }}>
          {/* Exact: the router marks a link to any page above this one as the current page otherwise. */}
          <AnchorLink to="/admin" size="sm" activeOptions={{ exact: true }}>
            Admin
          </AnchorLink>
          {/* The heading below shows a long name whole; here it is cut short on the line of Admin rather
              than run off the screen, tall enough for its descenders (the breadcrumbs' line height is 1). */}
          <Text size="sm" lh="sm" truncate miw={0} aria-current="page">
            {title}
          </Text>
        </Breadcrumbs>
      </nav>
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

/**
 * The 'Search...' box: filters through the server, debounced. The address keeps the search, so
 * when it changes from elsewhere (the browser's back and forward buttons, a link) the box shows
 * the new one; a change it sent itself is left alone, not to undo what was typed since.
 */
export function SearchBox({ value, onSearch }: { value: string; onSearch: (search: string) => void }) {
  const [text, setText] = useState(value);
  const sent = useRef(value);
  const debounced = useDebouncedCallback((search: string) => {
    sent.current = search;
    onSearch(search);
  }, 300);
  useEffect(() => {
    if (value !== sent.current) setText(value);
    sent.current = value;
  }, [value]);
  return (
    <TextInput
      aria-label="Search"
      placeholder="Search..."
      maxLength={SEARCH_MAX_LENGTH}
      value={text}
      onChange={(event) => {
        setText(event.currentTarget.value);
        debounced(event.currentTarget.value);
      }}
      // One width on every list, the Audit Log's row with its filter too (it shrank there to fit its placeholder).
      w={360}
      maw="100%"
    />
  );
}

