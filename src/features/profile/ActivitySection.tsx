import { Divider, Stack, Text } from '@mantine/core';
import { ownActivitySchema, type AuditEvent } from '../../../contract/audit';
import { actorOf, describeAuditEvent, isAlarming } from '../../ui/audit-events';
import { deviceSource } from '../../ui/device-source';
import { momentOf } from './dates';
import { LoadFailedAlert } from './LoadFailedAlert';
import { ProfileCard } from './ProfileCard';
import { useOwnData } from './use-own-data';

/** When, and from where or by whom: "Dec 2, 2026, 7:30 AM · 192.168.1.5 · Linux, Firefox 133.0", "… · by an administrator". */
function whenAndWhere(event: AuditEvent): string {
  const actor = actorOf(event);
  const where = [event.ip_address ?? 'No IP available', ...(event.device_info ? [deviceSource(event.device_info)] : [])];
  const how = actor === 'administrator' ? ['by an administrator'] : actor === 'command line' ? ['from the command line'] : where;
  return [momentOf(event.at), ...how].join(' · ');
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
            <Text size="sm" fw={600} c={isAlarming(event) ? 'red' : undefined}>
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
