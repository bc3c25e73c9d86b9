import { LoadingOverlay, Stack, Table, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { apiServiceListSchema } from '../../../../contract/services';
import { PlusIcon } from '../../../ui/icons';
import { AnchorLink, ButtonLink } from '../../../ui/links';
import { AdminPage, SearchBox } from '../shared/AdminPage';
import { longDate, yesNo } from '../shared/format';
import { useApiData } from '../shared/use-api-data';

export function ServicesListPage({ search }: { search: { search?: string | undefined } }) {
  const navigate = useNavigate();
  const query = search.search ? `?${new URLSearchParams({ search: search.search })}` : '';
  const { data, loading } = useApiData(`/api/v1/admin/api-services${query}`, apiServiceListSchema);
  const items = data?.items ?? [];
  return (
    <AdminPage
      title="API Services"
      actions={
        <ButtonLink to="/admin/api-services/create" leftSection={<PlusIcon size={16} />}>
          Add API Service
        </ButtonLink>
      }
    >
      <SearchBox value={search.search ?? ''} onSearch={(text) => void navigate({ to: '/admin/api-services', search: { search: text || undefined } })} />
      <Stack pos="relative" mih={120}>
        <LoadingOverlay visible={loading} />
        <Table.ScrollContainer minWidth={760}>
          <Table striped highlightOnHover verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                {['Name', 'Client ID', 'Is Active', 'Created At', 'Updated At'].map((header) => (
                  <Table.Th key={header}>{header}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((service) => (
                <Table.Tr key={service.id}>
                  <Table.Td>
                    <AnchorLink to="/admin/api-services/view/$serviceId" params={{ serviceId: service.id }} fw={600}>
                      {service.name}
                    </AnchorLink>
                  </Table.Td>
                  <Table.Td ff="monospace" fz="sm">
                    {service.client_id}
                  </Table.Td>
                  <Table.Td>{yesNo(service.is_active)}</Table.Td>
                  <Table.Td fz="sm">{longDate(service.created_at)}</Table.Td>
                  <Table.Td fz="sm">{longDate(service.updated_at)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {!loading && items.length === 0 && (
          <Text c="dimmed" ta="center" py="lg">
            No services found.
          </Text>
        )}
      </Stack>
    </AdminPage>
  );
}
