import { LoadingOverlay, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';

export type Column<T> = { header: string; cell: (row: T) => ReactNode };

/**
 * An admin table: a loading overlay, horizontal scrolling on narrow screens, an empty text.
 * `rows` is undefined when the list could not be loaded (offline, a server error): then the table
 * stays empty without saying there is nothing, which would be untrue. The scrolling area is a
 * named region in the tab order, so it scrolls from the keyboard even with no link in it (WCAG
 * 2.1.1). A status line tells screen readers what a search, a page change or a reload brought
 * (WCAG 4.1.3): the table changed in silence.
 */
export function DataTable<T extends { id: string }>({ label, rows, columns, loading, empty, minWidth = 760 }: { label: string; rows: T[] | undefined; columns: Array<Column<T>>; loading: boolean; empty: string; minWidth?: number }) {
  return (
    <Stack pos="relative" mih={120}>
      <LoadingOverlay visible={loading} loaderProps={{ children: 'Loading...' }} />
      <Table.ScrollContainer minWidth={minWidth} scrollAreaProps={{ viewportProps: { role: 'region', 'aria-label': label, tabIndex: 0 } }}>
        <Table striped highlightOnHover verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column.header}>{column.header}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows?.map((row) => (
              <Table.Tr key={row.id}>
                {columns.map((column) => (
                  <Table.Td key={column.header} fz="sm">
                    {column.cell(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <div role="status">
        {!loading && rows?.length === 0 && (
          <Text c="dimmed" ta="center" py="lg">
            {empty}
          </Text>
        )}
        {!loading && rows?.length ? <VisuallyHidden>{`${label}: ${rows.length} shown`}</VisuallyHidden> : null}
      </div>
    </Stack>
  );
}
