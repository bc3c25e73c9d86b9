import { getFormProps, getInputProps } from '@conform-to/react';
import { Alert, Button, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { registerFormSchema, type RegisterRequest } from '../../../contract/accounts';
import { messageFromResponseText } from '../../api/errors';
import type { FromSearch } from '../../app/guards';
import { AnchorLink } from '../../ui/links';
import { OutcomeAlert, type Outcome } from '../../ui/OutcomeAlert';
import { useSchemaForm } from '../../ui/use-schema-form';
import { AuthCard } from './AuthCard';
import { useRegistrationOpen } from './registration-status';

/** Spec §8's registration messages. */
async function register(body: RegisterRequest): Promise<Outcome> {
  let response: Response;
  try {
    response = await fetch('/api/v1/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  } catch {
    return { kind: 'error', message: 'Failed to create account. Unexpected error happened' };
  }
  if (response.status === 200) return { kind: 'success', message: 'Account has been created. You can now log into your new account' };
  const text = await response.text().catch(() => '');
  return { kind: 'error', message: `Failed to create an account. ${messageFromResponseText(text)}` };
}

export function RegisterPage({ search }: { search: FromSearch }) {
  const [submitting, setSubmitting] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const registrationOpen = useRegistrationOpen();
  const [form, fields] = useSchemaForm({
    id: 'register',
    schema: registerFormSchema,
    onValid: async ({ repeat_password: _repeat, ...values }) => {
      setSubmitting(true);
      setOutcome(null);
      const result = await register({ ...values, ...(values.phone_number ? { phone_number: values.phone_number } : {}) });
      setOutcome(result);
      if (result?.kind === 'success') form.reset();
      setSubmitting(false);
    },
  });

  return (
    <AuthCard title="Sign Up" subtitle={registrationOpen === false ? undefined : 'Create your Home Guard account to use your home services.'}>
      {registrationOpen === false ? (
        <Alert color="blue" variant="light" role="status" title="Registration is closed">
          Only an administrator of this Home Guard can create accounts. Ask them for one.
        </Alert>
      ) : (
        <form {...getFormProps(form)}>
          <Stack gap="md">
            <OutcomeAlert outcome={outcome} />
            <TextInput {...getInputProps(fields.full_name, { type: 'text' })} key={fields.full_name.key} label="Full name" placeholder="Ada Lovelace" autoComplete="name" error={fields.full_name.errors?.[0]} />
            <TextInput {...getInputProps(fields.email, { type: 'email' })} key={fields.email.key} label="Email" placeholder="you@example.com" autoComplete="email" error={fields.email.errors?.[0]} />
            <TextInput {...getInputProps(fields.phone_number, { type: 'tel' })} key={fields.phone_number.key} label="Phone (optional)" placeholder="+1 555 0100" autoComplete="tel" error={fields.phone_number.errors?.[0]} />
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
              <PasswordInput {...getInputProps(fields.password, { type: 'password' })} key={fields.password.key} label="Password" autoComplete="new-password" error={fields.password.errors?.[0]} />
              <PasswordInput {...getInputProps(fields.repeat_password, { type: 'password' })} key={fields.repeat_password.key} label="Repeat password" autoComplete="new-password" error={fields.repeat_password.errors?.[0]} />
            </SimpleGrid>
            <Button type="submit" loading={submitting} fullWidth size="md">
              Register
            </Button>
          </Stack>
        </form>
      )}
      <Text size="sm" ta="center">
        Already have an account?{' '}
        <AnchorLink to="/auth/login" search={search} fw={600}>
          Log In
        </AnchorLink>
      </Text>
    </AuthCard>
  );
}
