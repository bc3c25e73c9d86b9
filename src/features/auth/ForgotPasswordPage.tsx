import { getFormProps, getInputProps } from '@conform-to/react';
import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { z } from 'zod';
import { passwordResetRequestSchema } from '../../../contract/accounts';
import { callApi, withoutAccount } from '../../api/client';
import type { FromSearch } from '../../app/guards';
import { AnchorLink } from '../../ui/links';
import { OutcomeAlert } from '../../ui/OutcomeAlert';
import { useAsyncAction } from '../../ui/use-async-action';
import { useSchemaForm } from '../../ui/use-schema-form';
import { AuthCard } from './AuthCard';

/** /auth/forgot-password: asks for a mail with a link to choose a new password. */
export function ForgotPasswordPage({ search }: { search: FromSearch }) {
  const sending = useAsyncAction('Asking for a password reset');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [form, fields] = useSchemaForm({
    id: 'forgot-password',
    schema: passwordResetRequestSchema,
    onValid: ({ email }) =>
      sending.run(async () => {
        await callApi(withoutAccount, 'POST', '/api/v1/auth/password-reset', z.object({}), { email });
        setSentTo(email);
      }),
  });

  return (
    <AuthCard title="Forgot Password" subtitle={sentTo ? undefined : "Enter your account's email, and Home Guard mails you a link to choose a new password."}>
      {sentTo ? (
        // It takes the place of the form, and of the focused Send Link: the focus goes to it, and is read out.
        <Alert color="green" variant="light" role="status" title="Check your mail" tabIndex={-1} ref={(alert) => alert?.focus()}>
          If an account uses {sentTo}, a link to choose a new password is on its way. It works for 30 minutes.
        </Alert>
      ) : (
        <form {...getFormProps(form)}>
          <Stack gap="md">
            <OutcomeAlert outcome={sending.outcome} />
            <TextInput {...getInputProps(fields.email, { type: 'email' })} key={fields.email.key} label="Email" placeholder="you@example.com" autoComplete="username" error={fields.email.errors?.[0]} />
            <Button type="submit" loading={sending.busy} fullWidth size="md">
              Send Link
            </Button>
          </Stack>
        </form>
      )}
      <Text size="sm" c="dimmed" ta="center">
        No mail? An administrator of this Home Guard can set a new password for you.
      </Text>
      <Text size="sm" ta="center">
        <AnchorLink to="/auth/login" search={search} fw={600}>
          Back to Sign In
        </AnchorLink>
      </Text>
    </AuthCard>
  );
}
