import { Group, Stack, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { adminUserListSchema, type AdminUser } from '../../../../contract/admin';
import { AccountAvatar } from '../../../ui/AccountAvatar';
import { PlusIcon } from '../../../ui/icons';
import { AnchorLink, ButtonLink } from '../../../ui/links';
import { AdminPage, SearchBox } from '../shared/AdminPage';
import { DataTable, type Column } from '../shared/DataTable';
import { EmailAddress } from '../../../ui/EmailAddress';
import { longDate, yesNo } from '../shared/format';
import { useApiData } from '../shared/use-api-data';

const COLUMNS: Array<Column<AdminUser>> = [
  {
    header: 'Full Name',
    cell: (user) => (
      <Group gap="xs" wrap="nowrap" miw={{ base: 0, sm: 170 }}>
        <AccountAvatar src={user.profile_picture} name={user.full_name} decorative radius="xl" size={30} />
        <Stack gap={2} align="flex-start">
          <AnchorLink to="/admin/users/view/$userId" params={{ userId: user.id }} fw={600}>
            {user.full_name}
          </AnchorLink>
          {user.disabled_at && (
            <Text size="xs" fw={700} c="red" tt="uppercase">
              Disabled
            </Text>
          )}
        </Stack>
      </Group>
    ),
  },
  { header: 'Email', cell: (user) => <EmailAddress email={user.email} /> },
  { header: 'Is Admin', cell: (user) => yesNo(user.is_admin) },
  { header: 'Created At', cell: (user) => longDate(user.created_at) },
  { header: 'Last Login', cell: (user) => longDate(user.last_login) },
];

export function UsersListPage({ search }: { search: { search?: string | undefined } }) {
  const navigate = useNavigate();
  const query = search.search ? `?${new URLSearchParams({ search: search.search })}` : '';
  const { data, loading } = useApiData(`/api/v1/admin/users${query}`, adminUserListSchema, { keepPrevious: true });
  return (
    <AdminPage
      title="Users"
      actions={
        <ButtonLink to="/admin/users/create" leftSection={<PlusIcon size={16} />}>
          Add User
        </ButtonLink>
      }
    >
      <SearchBox value={search.search ?? ''} onSearch={(text) => void navigate({ to: '/admin/users', search: { search: text || undefined } })} />
      <DataTable label="Users" rows={data?.items} columns={COLUMNS} loading={loading} empty="No users found." />
    </AdminPage>
  );
}
