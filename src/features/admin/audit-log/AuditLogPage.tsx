import { Avatar, Group, NativeSelect, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { auditLogPageSchema } from '../../../../contract/admin';
import { AUDIT_EVENT_GROUP_NAMES, type AuditEvent, type AuditEventGroup } from '../../../../contract/audit';
import { actorOf, describeAuditEvent, isAlarming } from '../../../ui/audit-events';
import { deviceSource } from '../../../ui/device-source';
import { ServerIcon } from '../../../ui/icons';
import { AnchorLink } from '../../../ui/links';
import { AdminPage, SearchBox } from '../shared/AdminPage';
import { DataTable } from '../shared/DataTable';
import { longDate } from '../shared/format';
import { Pager } from '../shared/Pager';
import { useApiData } from '../shared/use-api-data';
import { useLastPageAtMost } from '../shared/use-last-page';
import { UserCell } from '../shared/UserCell';

export type AuditLogSearch = { page: number; search?: string | undefined; user?: string | undefined; ip?: string | undefined; group?: AuditEventGroup | undefined };
const GROUP_LABELS: Record<AuditEventGroup, string> = {
  'sign-ins': 'Sign-ins and sign-outs',
  refusals: 'Refused sign-ins and reused tokens',
  accounts: 'Changes to accounts',
  services: 'Changes to services',
};
const isGroup = (value: string): value is AuditEventGroup => (AUDIT_EVENT_GROUP_NAMES as string[]).includes(value);
const PAGE_SIZE = 20;

/** Admin › Audit Log: every event, newest first, a page at a time; `user` narrows it to one account, `ip` to one address. */
export function AuditLogPage({ search }: { search: AuditLogSearch }) {
  const navigate = useNavigate();
  const query = new URLSearchParams({
    page: String(search.page),
    size: String(PAGE_SIZE),
    ...(search.search ? { search: search.search } : {}),
    ...(search.user ? { user_id: search.user } : {}),
    ...(search.ip ? { ip: search.ip } : {}),
    ...(search.group ? { group: search.group } : {}),
  });
  const { data, loading } = useApiData(`/api/v1/admin/audit-log?${query}`, auditLogPageSchema, { keepPrevious: true });
  const pastEnd = useLastPageAtMost(search.page, data, loading, (page) => void navigate({ to: '/admin/audit-log', search: { ...search, page }, replace: true }));
  const account = search.user ? data?.items.find((event) => event.user)?.user : undefined;

  return (
    <AdminPage title="Audit Log">
      <Text c="dimmed" size="sm">
        Sign-ins and sign-outs, refused sign-ins and changes to accounts and services{data && `, kept for ${data.kept_days === 1 ? 'a day' : `${data.kept_days} days`}`}.
      </Text>
      <Group gap="md">
        <SearchBox value={search.search ?? ''} onSearch={(text) => void navigate({ to: '/admin/audit-log', search: { ...search, page: 1, search: text || undefined } })} />
        <NativeSelect
          aria-label="Events"
          value={search.group ?? ''}
          data={[{ value: '', label: 'All events' }, ...AUDIT_EVENT_GROUP_NAMES.map((group) => ({ value: group, label: GROUP_LABELS[group] }))]}
          onChange={(event) => {
            const value = event.currentTarget.value;
            void navigate({ to: '/admin/audit-log', search: { ...search, page: 1, group: isGroup(value) ? value : undefined } });
          }}
        />
        {(search.user || search.ip) && (
          <Text size="sm">
            Only {search.user ? `${account ? account.full_name : 'one account'}'s events` : 'events'}
            {search.ip && ` from ${search.ip}`}.{' '}
            <AnchorLink to="/admin/audit-log" search={{ ...search, page: 1, user: undefined, ip: undefined }} size="sm">
              Show All
            </AnchorLink>
          </Text>
        )}
      </Group>
      <DataTable
        label="Audit log"
        rows={pastEnd ? undefined : data?.items}
        loading={loading || pastEnd}
        empty="No events found."
        minWidth={960}
        columns={[
          { header: 'Time', cell: (event) => longDate(event.at) },
          { header: 'Event', cell: (event) => <EventCell event={event} /> },
          { header: 'Account', cell: (event) => <AccountCell event={event} /> },
          { header: 'By', cell: (event) => <ActorCell event={event} /> },
          { header: 'IP + Source', cell: (event) => <SourceCell event={event} search={search} /> },
        ]}
      />
      <Pager page={search.page} totalPages={data?.total_pages ?? 0} onPage={(page) => void navigate({ to: '/admin/audit-log', search: { ...search, page } })} />
    </AdminPage>
  );
}

function EventCell({ event }: { event: AuditEvent }) {
  const line = describeAuditEvent(event);
  return (
    <Group gap="xs" wrap="nowrap">
      {event.service_id && (
        <Avatar src={event.service?.icon_url} alt="" size={24} radius="sm" color="blue">
          <ServerIcon size={14} />
        </Avatar>
      )}
      <Text size="sm" fw={500} c={isAlarming(event) ? 'red' : undefined}>
        {line}
      </Text>
    </Group>
  );
}

function AccountCell({ event }: { event: AuditEvent }) {
  if (!event.user_id) return <Text size="sm" c="dimmed">None</Text>;
  if (!event.user) return <Text size="sm" c="dimmed">Deleted account</Text>;
  return <UserCell userId={event.user_id} user={event.user} />;
}

/** Where an event came from; its address links to everything else from there. */
function SourceCell({ event, search }: { event: AuditEvent; search: AuditLogSearch }) {
  const ip = event.ip_address;
  return (
    <>
      {ip && ip !== search.ip ? (
        <AnchorLink to="/admin/audit-log" search={{ ...search, page: 1, ip }} size="sm" title={`Only events from ${ip}`} className="keep-whole">
          {ip}
        </AnchorLink>
      ) : (
        <Text size="sm" className="keep-whole">
          {ip ?? 'No IP available'}
        </Text>
      )}
      {event.device_info && (
        <Text size="xs" c="dimmed">
          {deviceSource(event.device_info)}
        </Text>
      )}
    </>
  );
}

const ACTORS = { themselves: 'Themselves', 'command line': 'Command line', unknown: 'Unknown' };

/** Who acted: the person themselves, an administrator by name, the command line, or unknown (a copied token). */
function ActorCell({ event }: { event: AuditEvent }) {
  const actor = actorOf(event);
  return (
    <Text size="sm" c={actor === 'themselves' ? 'dimmed' : undefined} style={{ whiteSpace: 'nowrap' }}>
      {actor === 'administrator' ? (event.actor?.full_name ?? 'Deleted account') : ACTORS[actor]}
    </Text>
  );
}
