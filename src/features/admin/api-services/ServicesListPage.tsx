import { useNavigate } from '@tanstack/react-router';
import { apiServiceListSchema, type ApiService } from '../../../../contract/services';
import { PlusIcon } from '../../../ui/icons';
import { AnchorLink, ButtonLink } from '../../../ui/links';
import { AdminPage, SearchBox } from '../shared/AdminPage';
import { DataTable, type Column } from '../shared/DataTable';
import { longDate, yesNo } from '../shared/format';
import { useApiData } from '../shared/use-api-data';

const COLUMNS: Array<Column<ApiService>> = [
  {
    header: 'Name',
    cell: (service) => (
      <AnchorLink to="/admin/api-services/view/$serviceId" params={{ serviceId: service.id }} fw={600}>
        {service.name}
      </AnchorLink>
    ),
  },
  { header: 'Client ID', cell: (service) => <code>{service.client_id}</code> },
  { header: 'Is Active', cell: (service) => yesNo(service.is_active) },
  { header: 'Created At', cell: (service) => longDate(service.created_at) },
  { header: 'Updated At', cell: (service) => longDate(service.updated_at) },
];

export function ServicesListPage({ search }: { search: { search?: string | undefined } }) {
  const navigate = useNavigate();
  const query = search.search ? `?${new URLSearchParams({ search: search.search })}` : '';
  const { data, loading } = useApiData(`/api/v1/admin/api-services${query}`, apiServiceListSchema, { keepPrevious: true });
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
      <DataTable label="API Services" rows={data?.items} columns={COLUMNS} loading={loading} empty="No services found." />
    </AdminPage>
  );
}
