import { z } from 'zod';
import type { AdminUserDetail } from '../../../../contract/admin';
import { callApi } from '../../../api/client';
import { useSession } from '../../../app/session-context';
import { NewPasswordCard } from '../../../ui/NewPasswordCard';
import { setPasswordFormSchema } from './user-forms';

/**
 * For someone who forgot their password: the administrator sets a new one, and the person is
 * signed out of Home Guard everywhere and of every service. Setting one's own keeps the Home Guard
 * session it is set from.
 */
export function SetPasswordSection({ user }: { user: AdminUserDetail }) {
  const session = useSession();
  const self = user.id === session.state.profile?.id;
  return (
    <NewPasswordCard
      id={`set-password-${user.id}`}
      description={self ? 'A new password signs you out of Home Guard on your other devices, and out of your services.' : `If ${user.full_name} forgot their password, set a new one and tell them. They are signed out of every device and service.`}
      action="Set New Password"
      dialogTitle={self ? 'Set your new password' : `Set a new password for ${user.full_name}`}
      schema={setPasswordFormSchema}
      frame={{ maw: 560 }}
      submit={async ({ password }) => {
        await callApi(session.connection, 'PUT', `/api/v1/admin/users/${encodeURIComponent(user.id)}/password`, z.object({}), { password });
        return self ? 'Your new password is set. Your other devices and your services were signed out.' : `The new password is set. ${user.full_name} was signed out of every device and service.`;
      }}
    />
  );
}
