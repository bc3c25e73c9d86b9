import { getFormProps, getInputProps } from '@conform-to/react';
import { Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { z } from 'zod';
import { passwordResetFormSchema } from '../../../contract/accounts';
import { callApi, withoutAccount } from '../../api/client';
import { LockIcon } from '../../ui/icons';
import { AnchorLink, ButtonLink } from '../../ui/links';
import { NoticeCard } from '../../ui/NoticeCard';
import { OutcomeAlert } from '../../ui/OutcomeAlert';
import { useAsyncAction } from '../../ui/use-async-action';
import { useSchemaForm } from '../../ui/use-schema-form';
import { AuthCard } from './AuthCard';

/** /auth/reset-password#{token}: the page the reset mail links to. Open to anyone, signed in or not. */
export function ResetPasswordPage() {
  // The token is the mailed link's fragment: read once, then dropped from the address bar and history.
  const [token] = useState(() => window.location.hash.slice(1));
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  }, []);
  // Another link pasted into this tab changes only the fragment: start over with its token.
  useWindowEvent('hashchange', () => window.location.reload());
  const [done, setDone] = useState(false);
  const setting = useAsyncAction('Setting the new password');
  const [form, fields] = useSchemaForm({
    id: 'reset-password',
    schema: passwordResetFormSchema,
    onValid: ({ password }) =>
      setting.run(async () => {
        await callApi(withoutAccount, 'POST', '/api/v1/auth/password-reset/confirm', z.object({}), { token, password });
        setDone(true);
      }),
  });

  if (!token) {
    return (
      <NoticeCard icon={<LockIcon size={30} />} colour="orange" title="This link is incomplete">
        <Text c="dimmed">Open the whole link from the mail, or ask for a new one.</Text>
        <ButtonLink to="/auth/forgot-password" variant="light">
          Ask for a new link
        </ButtonLink>
      </NoticeCard>
    );
  }
  if (done) {
    return (
      <NoticeCard title="Your new password is set">
        <Text c="dimmed">You were signed out of Home Guard and of your services everywhere. Sign in with the new password.</Text>
        <ButtonLink to="/auth/login">Sign In</ButtonLink>
      </NoticeCard>
    );
  }
  return (
    <AuthCard title="Choose a New Password" subtitle="It replaces the old one, and every device and service signed in to your account is signed out.">
      <form {...getFormProps(form)}>
        <Stack gap="md">
          <OutcomeAlert outcome={setting.outcome} />
          <PasswordInput {...getInputProps(fields.password, { type: 'password' })} key={fields.password.key} label="New Password" autoComplete="new-password" error={fields.password.errors?.[0]} />
          <PasswordInput {...getInputProps(fields.repeat_password, { type: 'password' })} key={fields.repeat_password.key} label="Repeat Password" autoComplete="new-password" error={fields.repeat_password.errors?.[0]} />
          <Button type="submit" loading={setting.busy} fullWidth size="md">
            Set Password
          </Button>
        </Stack>
      </form>
      <Text size="sm" ta="center">
        <AnchorLink to="/auth/forgot-password" fw={600}>
          Ask for a new link
        </AnchorLink>
      </Text>
    </AuthCard>
  );
}
