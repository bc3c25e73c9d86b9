import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Alert, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { loginRequestSchema } from '../../../contract/accounts';
import { capitalise, errorMessage } from '../../api/errors';
import type { FromSearch } from '../../app/guards';
import { useSession } from '../../app/session-context';
import { AnchorLink } from '../../ui/links';
import { AuthCard } from './AuthCard';

type Outcome = { kind: 'success' | 'error'; message: string } | null;

export function SignInPage({ search }: { search: FromSearch }) {
  const session = useSession();
  const [submitting, setSubmitting] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [form, fields] = useForm({
    id: 'sign-in',
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginRequestSchema }),
    onSubmit: async (event, { submission }) => {
      event.preventDefault();
      if (submission?.status !== 'success') return;
      setSubmitting(true);
      setOutcome(null);
      try {
        const result = await session.signIn(submission.value.email, submission.value.password);
        if (result.ok) {
          setOutcome({ kind: 'success', message: 'You have successfully logged in' });
          form.reset();
        } else {
          setOutcome({ kind: 'error', message: capitalise(result.error || 'Unexpected error happened') });
        }
      } catch (error) {
        setOutcome({ kind: 'error', message: errorMessage(error) });
      } finally {
        setSubmitting(false);
      }
    },
  });

  return (
    <AuthCard title="Sign In" subtitle="Enter your credentials to access home services and tools.">
      <form {...getFormProps(form)}>
        <Stack gap="md">
          {outcome && (
            <Alert color={outcome.kind === 'success' ? 'green' : 'red'} variant="light" role={outcome.kind === 'error' ? 'alert' : 'status'}>
              {outcome.message}
            </Alert>
          )}
          <TextInput
            {...getInputProps(fields.email, { type: 'email' })}
            key={fields.email.key}
            label="Email"
            placeholder="you@example.com"
            autoComplete="username"
            error={fields.email.errors?.[0]}
          />
          <PasswordInput
            {...getInputProps(fields.password, { type: 'password' })}
            key={fields.password.key}
            label="Password"
            placeholder="Your password"
            autoComplete="current-password"
            error={fields.password.errors?.[0]}
          />
          <Button type="submit" loading={submitting} fullWidth size="md">
            Log In
          </Button>
        </Stack>
      </form>
      <Text size="sm" ta="center">
        Don't have an account?{' '}
        <AnchorLink to="/auth/register" search={search} fw={600}>
          Register
        </AnchorLink>
      </Text>
    </AuthCard>
  );
}
