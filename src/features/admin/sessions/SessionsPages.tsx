import { Avatar, Group, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import type { z } from 'zod';
import { pagedSchema, serviceSessionSchema, userSessionSchema } from '../../../../contract/admin';
import { ServerIcon } from '../../../ui/icons';
import { AnchorLink } from '../../../ui/links';
import { AdminPage, SearchBox } from '../shared/AdminPage';
import type { Column } from '../shared/DataTable';
import { deviceSource } from '../../../ui/device-source';
import { Pager } from '../shared/Pager';
import { useApiData } from '../shared/use-api-data';
import { useLastPageAtMost } from '../shared/use-last-page';
import { UserCell } from '../shared/UserCell';
import { SessionStatus, SessionsTable, type SessionRow } from './SessionsTable';

export type PageSearch = { page: number; search?: string | undefined };
const PAGE_SIZE = 10;
const userPage = pagedSchema(userSessionSchema);
const servicePage = pagedSchema(serviceSessionSchema);

/** A session table screen: search, the paged table, the pager; the URL keeps page and search. */
function SessionsScreen<T extends SessionRow>(props: {
  title: string;
  to: '/admin/user-sessions' | '/admin/service-sessions';
  api: string;
  schema: z.ZodType<{ items: T[]; total_pages: number }>;
  columns: Array<Column<T>>;
  search: PageSearch;
}) {
  const { title, to, api, schema, columns, search } = props;
  const navigate = useNavigate();
  const query = new URLSearchParams({ page: String(search.page), size: String(PAGE_SIZE), ...(search.search ? { search: search.search } : {}) });
  const { data, loading, reload } = useApiData(`${api}?${query}`, schema, { keepPrevious: true });
  const pastEnd = useLastPageAtMost(search.page, data, loading, (page) => void navigate({ to, search: { ...search, page }, replace: true }));
  return (
    <AdminPage title={title}>
      <SearchBox value={search.search ?? ''} onSearch={(text) => void navigate({ to, search: { page: 1, search: text || undefined } })} />
      <SessionsTable label={title} rows={pastEnd ? undefined : data?.items} loading={loading || pastEnd} revokePath={`${api}/revoke`} onRevoked={reload} columns={columns} />
      <Pager page={search.page} totalPages={data?.total_pages ?? 0} onPage={(page) => void navigate({ to, search: { ...search, page } })} />
    </AdminPage>
  );
}

export function UserSessionsPage({ search }: { search: PageSearch }) {
  return (
    <SessionsScreen
      title="User Sessions"
      to="/admin/user-sessions"
      api="/api/v1/admin/user-sessions"
      schema={userPage}
      search={search}
      columns={[
        { header: 'User', cell: (s) => <UserCell userId={s.user_id} user={s.user} /> },
        { header: 'Source', cell: (s) => deviceSource(s.device_info) },
        { header: 'Status', cell: (s) => <SessionStatus session={s} /> },
      ]}
    />
  );
}

export function ServiceSessionsPage({ search }: { search: PageSearch }) {
  return (
    <SessionsScreen
      title="Service Sessions"
      to="/admin/service-sessions"
      api="/api/v1/admin/service-sessions"
      schema={servicePage}
      search={search}
      columns={[
        {
          header: 'Service',
          cell: (s) => (
            <Group gap="xs" wrap="nowrap" miw={{ base: 0, sm: 150 }}>
              <Avatar src={s.api_service.icon_url} alt="" size={28} radius="sm" color="blue">
                <ServerIcon size={16} />
              </Avatar>
              <AnchorLink to="/admin/api-services/view/$serviceId" params={{ serviceId: s.service_id }} size="sm">
                {s.api_service.name || s.client_id}
              </AnchorLink>
            </Group>
          ),
        },
        {
          header: 'User + IP',
          cell: (s) => (
            <UserCell
              userId={s.user_id}
              user={s.user}
              extra={
                <Text size="xs" c="dimmed" className="keep-whole">
                  {s.ip_address ?? 'No IP available'}
                </Text>
              }
            />
          ),
        },
        { header: 'Status', cell: (s) => <SessionStatus session={s} /> },
      ]}
    />
  );
}
