import { z } from 'zod';
import type { AdminUserDetail } from '../../../../contract/admin';
import { callApi } from '../../../api/client';
import { useSession } from '../../../app/session-context';
import { NewPasswordCard } from '../../../ui/NewPasswordCard';
import { OwnAccountCard } from './OwnAccountCard';
import { setPasswordFormSchema } from './user-forms';

/**
 * For someone who forgot their password: the administrator sets a new one, and the person is
 * signed out of Home Guard everywhere and of every service. One's own is changed on Personal Info,
 * which asks for the current password (the server refuses it here).
 */
export function SetPasswordSection({ user }: { user: AdminUserDetail }) {
  const session = useSession();
  if (user.id === session.state.profile?.id) return <OwnAccountCard title="Password" what="your password" />;
  return (
    <NewPasswordCard
      id={`set-password-${user.id}`}
      description={`If ${user.full_name} forgot their password, set a new one and tell them. They are signed out of every device and service.`}
      action="Set New Password"
      dialogTitle={`Set a new password for ${user.full_name}`}
      schema={setPasswordFormSchema}
      frame={{ maw: 560 }}
      submit={async ({ password }) => {
        await callApi(session.connection, 'PUT', `/api/v1/admin/users/${encodeURIComponent(user.id)}/password`, z.object({}), { password });
        return `The new password is set. ${user.full_name} was signed out of every device and service.`;
      }}
    />
  );
}
