import { Divider, Stack, Text } from '@mantine/core';
import { ownActivitySchema, type AuditEvent } from '../../../contract/audit';
import { describeAuditEvent } from '../../ui/audit-events';
import { deviceSource } from '../../ui/device-source';
import { momentOf } from './dates';
import { LoadFailedAlert } from './LoadFailedAlert';
import { ProfileCard } from './ProfileCard';
import { useOwnData } from './use-own-data';

/** When, from where, and by whom when it was not the person: "Dec 2, 2026, 7:30 AM · 192.168.1.5 · Linux, Firefox 133.0". */
function whenAndWhere(event: AuditEvent): string {
  const parts = [momentOf(event.at)];
  if (event.actor_id === null) parts.push('from the command line');
  else if (event.actor_id !== event.user_id) parts.push('by an administrator');
  else parts.push(event.ip_address ?? 'No IP available', ...(event.device_info ? [deviceSource(event.device_info)] : []));
  return parts.join(' · ');
}

/** The account's latest sign-ins and changes, from the audit log: a sign-in that was not them shows here. */
export function ActivitySection() {
  const { data, error, reload } = useOwnData('/api/v1/auth/activity', ownActivitySchema);
  return (
    <ProfileCard title="Recent Activity" description="Your latest sign-ins and changes to your account. If one was not you, change your password and sign out the devices you do not recognise.">
      <LoadFailedAlert message={error} onRetry={reload} />
      <Stack gap="sm" role="list" aria-label="Recent activity">
        {data?.items.map((event, index) => (
          <div role="listitem" key={event.id}>
            {index > 0 && <Divider mb="sm" />}
            <Text size="sm" fw={600} c={event.kind === 'sign-in-refused' ? 'red' : undefined}>
              {describeAuditEvent(event)}
            </Text>
            <Text size="xs" c="dimmed">
              {whenAndWhere(event)}
            </Text>
          </div>
        ))}
      </Stack>
    </ProfileCard>
  );
}
