import { Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { adminUserDetailSchema } from '../../../../contract/admin';
import { AccountAvatar } from '../../../ui/AccountAvatar';
import { ButtonLink } from '../../../ui/links';
import { AdminPage } from '../shared/AdminPage';
import { Detail } from '../shared/Detail';
import { RecordPlaceholder } from '../shared/RecordPlaceholder';
import { longDate, yesNo } from '../shared/format';
import { useApiData } from '../shared/use-api-data';

export function UserViewPage({ userId }: { userId: string }) {
  const { data: user, loading, notFound } = useApiData(`/api/v1/admin/users/${encodeURIComponent(userId)}`, adminUserDetailSchema);
  if (!user) return <RecordPlaceholder loading={loading} notFound={notFound} loadingLabel="Loading user..." missing="This user does not exist." title="User" list="/admin/users" />;
  const rows: Array<[string, string]> = [
    ['Email', user.email],
    ['Username', user.username],
    ['Phone Number', user.phone_number ?? '-'],
    ['Is Admin', yesNo(user.is_admin)],
    ['Groups', user.groups.length > 0 ? user.groups.join(', ') : '-'],
    ['Two-Step Sign-In', user.two_step_enabled ? 'On' : 'Off'],
    ['Account', user.disabled_at ? `Disabled since ${longDate(user.disabled_at)}` : 'Enabled'],
    ['Created At', longDate(user.created_at)],
    ['Last Login', longDate(user.last_login)],
  ];
  return (
    // Titled by the person, as a service's page is by the service: the tab and the breadcrumb say whose page it is.
    <AdminPage
      title={user.full_name}
      actions={
        <Group gap="xs">
          <ButtonLink to="/admin/users" variant="default">
            Back
          </ButtonLink>
          <ButtonLink to="/admin/audit-log" search={{ page: 1, user: user.id }} variant="default">
            Audit Log
          </ButtonLink>
          <ButtonLink to="/admin/users/edit/$userId" params={{ userId: user.id }}>
            Edit
          </ButtonLink>
        </Group>
      }
    >
      <Paper withBorder radius="md" p="lg" maw={720}>
        <Stack gap="lg">
          <AccountAvatar src={user.profile_picture} name={user.full_name} decorative size={72} radius={72} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {rows.map(([label, value]) => (
              <Detail key={label} label={label}>
                <Text>{value}</Text>
              </Detail>
            ))}
          </SimpleGrid>
        </Stack>
      </Paper>
    </AdminPage>
  );
}
