import { z } from 'zod';
import { changePasswordFormSchema } from '../../../contract/accounts';
import { callApi } from '../../api/client';
import { useSession } from '../../app/session-context';
import { NewPasswordCard } from '../../ui/NewPasswordCard';

/** The signed-in person changes their password with the current one (ASVS 2.1.5, 2.1.6); other devices and services are signed out (ASVS 3.3.3). */
export function ChangePasswordSection() {
  const session = useSession();
  return (
    <NewPasswordCard
      id="change-password"
      description="A new password signs you out of Home Guard on your other devices, and out of the services you use: they ask you to sign in again."
      action="Change Password"
      dialogTitle="Change your password"
      schema={changePasswordFormSchema}
      askCurrent
      frame={{ radius: 'lg' }}
      submit={async ({ current_password, password }) => {
        await callApi(session.connection, 'POST', '/api/v1/auth/password', z.object({}), { current_password, password });
        return 'Your password is changed. Your other devices and your services were signed out.';
      }}
    />
  );
}
