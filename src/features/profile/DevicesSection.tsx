import { z } from 'zod';
import { otherDevicesSignedOutSchema, ownSessionListSchema } from '../../../contract/accounts';
import { callApi } from '../../api/client';
import { useSession } from '../../app/session-context';
import { deviceSource } from '../../ui/device-source';
import { momentOf } from './dates';
import { LoadFailedAlert } from './LoadFailedAlert';
import { ProfileCard } from './ProfileCard';
import { SignOutList } from './SignOutList';
import { useOwnData } from './use-own-data';

/** Where the person is signed in to Home Guard, and signing out a device they do not recognise. */
export function DevicesSection() {
  const session = useSession();
  const { data, setData, error, reload } = useOwnData('/api/v1/auth/sessions', ownSessionListSchema);
  const items = data?.items.map((device) => ({
    id: device.id,
    name: deviceSource(device.device_info),
    detail: `${device.ip_address ?? 'No IP available'} · ${device.current ? 'Active now' : `Last active ${momentOf(device.last_active)}`}`,
    current: device.current,
  }));

  return (
    <ProfileCard title="Devices" description="Where you are signed in to Home Guard. A device signed out here is signed out of the services it signed in to as well. If you do not recognise one, sign it out and change your password.">
      <LoadFailedAlert message={error} onRetry={reload} />
      <SignOutList
        items={items ?? null}
        signOut={async (device) => {
          await callApi(session.connection, 'DELETE', `/api/v1/auth/sessions/${encodeURIComponent(device.id)}`, z.object({}));
          return `${device.name} is signed out.`;
        }}
        onSignedOut={(id) => setData((current) => current && { items: current.items.filter((device) => device.id !== id) })}
        signOutAll={{
          label: 'Sign Out Other Devices',
          signOut: async () => {
            const { signed_out } = await callApi(session.connection, 'DELETE', '/api/v1/auth/sessions', otherDevicesSignedOutSchema);
            return signed_out === 1 ? '1 other device is signed out.' : `${signed_out} other devices are signed out.`;
          },
          onSignedOut: () => setData((current) => current && { items: current.items.filter((device) => device.current) }),
        }}
      />
    </ProfileCard>
  );
}
