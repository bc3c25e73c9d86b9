import { Avatar, Group, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { pagedSchema, serviceSessionSchema, userSessionSchema } from '../../../../contract/admin';
import { AnchorLink } from '../../../ui/links';
import { ServerIcon } from '../../../ui/icons';
import { AdminPage, SearchBox } from '../shared/AdminPage';
import { deviceSource } from '../shared/format';
import { Pager } from '../shared/Pager';
import { useApiData } from '../shared/use-api-data';
import { SessionStatus, SessionsTable, SessionUser } from './SessionsTable';

export type PageSearch = { page: number; search?: string | undefined };
const PAGE_SIZE = 10;
const userPage = pagedSchema(userSessionSchema);
const servicePage = pagedSchema(serviceSessionSchema);
const query = ({ page, search }: PageSearch) => `?${new URLSearchParams({ page: String(page), size: String(PAGE_SIZE), ...(search ? { search } : {}) })}`;

export function UserSessionsPage({ search }: { search: PageSearch }) {
  const navigate = useNavigate();
  const { data, loading, reload } = useApiData(`/api/v1/admin/user-sessions${query(search)}`, userPage);
  return (
    <AdminPage title="User Sessions">
      <SearchBox value={search.search ?? ''} onSearch={(text) => void navigate({ to: '/admin/user-sessions', search: { page: 1, search: text || undefined } })} />
      <SessionsTable
        rows={data?.items ?? []}
        loading={loading}
        revokePath="/api/v1/admin/user-sessions/revoke"
        onRevoked={reload}
        columns={[
          { header: 'User', cell: (s) => <SessionUser session={s} /> },
          { header: 'Source', cell: (s) => deviceSource(s.device_info) },
          { header: 'Status', cell: (s) => <SessionStatus session={s} /> },
        ]}
      />
      <Pager page={search.page} totalPages={data?.total_pages ?? 0} onPage={(page) => void navigate({ to: '/admin/user-sessions', search: { ...search, page } })} />
    </AdminPage>
  );
}

export function ServiceSessionsPage({ search }: { search: PageSearch }) {
  const navigate = useNavigate();
  const { data, loading, reload } = useApiData(`/api/v1/admin/service-sessions${query(search)}`, servicePage);
  return (
    <AdminPage title="Service Sessions">
      <SearchBox value={search.search ?? ''} onSearch={(text) => void navigate({ to: '/admin/service-sessions', search: { page: 1, search: text || undefined } })} />
      <SessionsTable
        rows={data?.items ?? []}
        loading={loading}
        revokePath="/api/v1/admin/service-sessions/revoke"
        onRevoked={reload}
        columns={[
          {
            header: 'Service',
            cell: (s) => (
              <Group gap="xs" wrap="nowrap">
                <Avatar src={s.api_service.icon_url} size={28} radius="sm" color="blue">
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
              <SessionUser
                session={s}
                extra={
                  <Text size="xs" c="dimmed">
                    {s.ip_address ?? 'No IP available'}
                  </Text>
                }
              />
            ),
          },
          { header: 'Status', cell: (s) => <SessionStatus session={s} /> },
        ]}
      />
      <Pager page={search.page} totalPages={data?.total_pages ?? 0} onPage={(page) => void navigate({ to: '/admin/service-sessions', search: { ...search, page } })} />
    </AdminPage>
  );
}
