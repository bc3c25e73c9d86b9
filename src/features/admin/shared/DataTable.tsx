import { LoadingOverlay, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import classes from './DataTable.module.css';

export type Column<T> = { header: string; cell: (row: T) => ReactNode };

/**
 * An admin table: a loading overlay, an empty text, and on a phone a card for each row (the
 * module's CSS says why). `rows` is undefined when the list could not be loaded (offline, a server
 * error): then the table stays empty without saying there is nothing, which would be untrue. On
 * wider screens the table scrolls sideways when it must; the scrolling area is a named region in
 * the tab order, so it scrolls from the keyboard even with no link in it (WCAG 2.1.1). A status
 * line tells screen readers what a search, a page change or a reload brought (WCAG 4.1.3): the
 * table changed in silence; `said` adds what an action in it did.
 */
export function DataTable<T extends { id: string }>({ label, rows, columns, loading, empty, minWidth = 760, said }: { label: string; rows: T[] | undefined; columns: Array<Column<T>>; loading: boolean; empty: string; minWidth?: number; said?: string }) {
  const stacked = !useMediaQuery('(min-width: 48em)', true);
  const table = (
    <Table striped={!stacked} highlightOnHover={!stacked} verticalSpacing="sm" role="table" aria-label={stacked ? label : undefined} className={stacked ? classes.stacked : undefined}>
      <Table.Thead role="rowgroup">
        <Table.Tr role="row">
          {columns.map((column) => (
            <Table.Th key={column.header} role="columnheader">
              {column.header}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody role="rowgroup">
        {rows?.map((row) => (
          <Table.Tr key={row.id} role="row">
            {columns.map((column) => (
              <Table.Td key={column.header} fz="sm" role="cell" data-label={column.header}>
                {stacked ? <div>{column.cell(row)}</div> : column.cell(row)}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  return (
    <Stack pos="relative" mih={120}>
      <LoadingOverlay visible={loading} loaderProps={{ children: 'Loading...' }} />
      {stacked ? (
        table
      ) : (
        <Table.ScrollContainer minWidth={minWidth} scrollAreaProps={{ viewportProps: { role: 'region', 'aria-label': label, tabIndex: 0 } }}>
          {table}
        </Table.ScrollContainer>
      )}
      <div role="status">
        {!loading && rows?.length === 0 && (
          <Text c="dimmed" ta="center" py="lg">
            {empty}
          </Text>
        )}
        {!loading && rows?.length ? <VisuallyHidden>{`${label}: ${rows.length} shown`}</VisuallyHidden> : null}
        {said && <VisuallyHidden>{said}</VisuallyHidden>}
      </div>
    </Stack>
  );
}
