import { Group, LoadingOverlay, Stack, Table, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { adminUserListSchema } from '../../../../contract/admin';
import { AccountAvatar } from '../../../ui/AccountAvatar';
import { PlusIcon } from '../../../ui/icons';
import { AnchorLink, ButtonLink } from '../../../ui/links';
import { AdminPage, SearchBox } from '../shared/AdminPage';
import { longDate, yesNo } from '../shared/format';
import { useApiData } from '../shared/use-api-data';

export function UsersListPage({ search }: { search: { search?: string | undefined } }) {
  const navigate = useNavigate();
  const query = search.search ? `?${new URLSearchParams({ search: search.search })}` : '';
  const { data, loading } = useApiData(`/api/v1/admin/users${query}`, adminUserListSchema);
  const items = data?.items ?? [];
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
      <Stack pos="relative" mih={120}>
        <LoadingOverlay visible={loading} />
        <Table.ScrollContainer minWidth={760}>
          <Table striped highlightOnHover verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                {['Full Name', 'Email', 'Is Admin', 'Created At', 'Last Login'].map((header) => (
                  <Table.Th key={header}>{header}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((user) => (
                <Table.Tr key={user.id}>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <AccountAvatar src={user.profile_picture} name={user.full_name} radius="xl" size={30} />
                      <AnchorLink to="/admin/users/view/$userId" params={{ userId: user.id }} fw={600}>
                        {user.full_name}
                      </AnchorLink>
                    </Group>
                  </Table.Td>
                  <Table.Td fz="sm">{user.email}</Table.Td>
                  <Table.Td>{yesNo(user.is_admin)}</Table.Td>
                  <Table.Td fz="sm">{longDate(user.created_at)}</Table.Td>
                  <Table.Td fz="sm">{longDate(user.last_login)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {!loading && items.length === 0 && (
          <Text c="dimmed" ta="center" py="lg">
            No users found.
          </Text>
        )}
      </Stack>
    </AdminPage>
  );
}
