import { Avatar } from '@mantine/core';
import { z } from 'zod';
import { signedInServiceListSchema } from '../../../contract/accounts';
import { callApi } from '../../api/client';
import { useSession } from '../../app/session-context';
import { ServerIcon } from '../../ui/icons';
import { momentOf } from './dates';
import { LoadFailedAlert } from './LoadFailedAlert';
import { ProfileCard } from './ProfileCard';
import { SignOutList } from './SignOutList';
import { useOwnData } from './use-own-data';

/** The services signed in through Home Guard; signing out of one ends its sessions on every device. */
export function ServicesSection() {
  const session = useSession();
  const { data, setData, error, reload } = useOwnData('/api/v1/auth/services', signedInServiceListSchema);
  const items = data?.items.map((service) => ({
    id: service.service_id,
    name: service.name,
    detail: service.last_active ? `${service.sessions === 1 ? '1 session' : `${service.sessions} sessions`} · Last active ${momentOf(service.last_active)}` : `No sessions · Approved, last used ${momentOf(service.approved_at!)}`,
    // Only approved: there is nothing to sign out of, but the approval can be withdrawn.
    action: service.sessions === 0 ? 'Remove' : undefined,
    leading: (
      <Avatar src={service.icon_url} alt="" size={32} radius="sm" color="blue">
        <ServerIcon size={18} />
      </Avatar>
    ),
  }));

  return (
    <ProfileCard title="Services" description="The services you signed in to with Home Guard. A service listed here does not ask for your approval again, even after you sign out of it there. Signing out of one here (or removing it) ends its sessions on all your devices and withdraws your approval: it asks again next time.">
      <LoadFailedAlert message={error} onRetry={reload} />
      <SignOutList
        items={items ?? null}
        empty="You are not signed in to any service."
        signOut={async (service) => {
          await callApi(session.connection, 'DELETE', `/api/v1/auth/services/${encodeURIComponent(service.id)}`, z.object({}));
          return service.action ? `${service.name} no longer has your approval: it asks again next time.` : `You are signed out of ${service.name}.`;
        }}
        onSignedOut={(id) => setData((current) => current && { items: current.items.filter((service) => service.service_id !== id) })}
      />
    </ProfileCard>
  );
}
