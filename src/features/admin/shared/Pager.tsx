import { Button, Group } from '@mantine/core';
import { pageWindow } from './format';

/** Previous/next and up to five page numbers; hidden with one page or fewer (spec §2). */
export function Pager({ page, totalPages, onPage }: { page: number; totalPages: number; onPage: (page: number) => void }) {
  if (totalPages <= 1) return null;
  return (
    <Group gap={6} justify="center" component="nav" aria-label="Pages">
      <Button variant="default" size="xs" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      {pageWindow(page, totalPages).map((number) => (
        <Button key={number} size="xs" variant={number === page ? 'filled' : 'default'} aria-current={number === page ? 'page' : undefined} onClick={() => onPage(number)}>
          {number}
        </Button>
      ))}
      <Button variant="default" size="xs" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </Group>
  );
}
