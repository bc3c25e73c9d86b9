import { getFormProps, getInputProps } from '@conform-to/react';
import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { loginRequestSchema, loginWithCodeSchema, loginWithRecoveryCodeSchema } from '../../../contract/accounts';
import { capitalise } from '../../api/errors';
import type { FromSearch } from '../../app/guards';
import { useSession } from '../../app/session-context';
import { AuthenticatorCodeInput } from '../../ui/AuthenticatorCodeInput';
import { AnchorLink } from '../../ui/links';
import { OutcomeAlert } from '../../ui/OutcomeAlert';
import { useAsyncAction } from '../../ui/use-async-action';
import { useSchemaForm } from '../../ui/use-schema-form';
import { AuthCard } from './AuthCard';
import { useRegistrationOpen } from './registration-status';

export function SignInPage({ search }: { search: FromSearch }) {
  const session = useSession();
  const submitting = useAsyncAction('Signing in');
  const registrationOpen = useRegistrationOpen();
  const { accounts, endedSession } = useSnapshot(session.state);
  // Two-step sign-in: the code field shows once the server asks for it, with its refusals under it.
  // With the phone lost, a recovery code goes in the same field.
  const [askCode, setAskCode] = useState(false);
  const [recoveryCode, setRecoveryCode] = useState(false);
  const [codeError, setCodeError] = useState<string>();
  const [form, fields] = useSchemaForm({
    id: 'sign-in',
    defaultValue: { email: endedSession?.email ?? '' },
    schema: !askCode ? loginRequestSchema : recoveryCode ? loginWithRecoveryCodeSchema : loginWithCodeSchema,
    onValid: (login) =>
      submitting.run(async () => {
        setCodeError(undefined);
        const result = await session.signIn(login);
        if (!result.ok && result.field === 'code') {
          setAskCode(true);
          // Asked for (no code was sent): the field and its description say it all.
          if (login.code !== undefined) setCodeError(capitalise(result.error));
          return;
        }
        // Signed in, the guards usually leave this page before the answer gets here: there is no
        // form left to reset then (Conform throws), only a success to show if it is still here.
        if (result.ok && document.getElementById(form.id)) form.reset();
        submitting.setOutcome(
          result.ok
            ? { kind: 'success', message: 'You have successfully logged in' }
            : { kind: 'error', message: capitalise(result.error || 'Unexpected error happened') },
        );
      }),
  });

  // A code the server refused: focus goes to it, so its message is read and the next one typed there.
  useEffect(() => {
    if (codeError) document.getElementById(fields.code.id)?.focus();
  }, [codeError, fields.code.id]);

  const switchCode = () => {
    setRecoveryCode(!recoveryCode);
    setCodeError(undefined);
    form.reset({ name: fields.code.name });
  };

  return (
    <AuthCard title="Sign In" subtitle="Enter your credentials to access home services and tools.">
      <form {...getFormProps(form)}>
        <Stack gap="md">
          <OutcomeAlert outcome={submitting.outcome ?? (endedSession && { kind: 'info', message: `You were signed out of ${endedSession.email}. Sign in again to go on.` })} />
          <TextInput
            {...getInputProps(fields.email, { type: 'email' })}
            key={fields.email.key}
            label="Email"
            placeholder="you@example.com"
            autoComplete="username"
            error={fields.email.errors?.[0]}
            // Another account may have no two-step sign-in: its code field goes until the server asks again.
            onInput={() => {
              if (!askCode) return;
              setAskCode(false);
              setRecoveryCode(false);
              setCodeError(undefined);
            }}
          />
          <PasswordInput
            {...getInputProps(fields.password, { type: 'password' })}
            key={fields.password.key}
            label="Password"
            placeholder="Your password"
            autoComplete="current-password"
            error={fields.password.errors?.[0]}
          />
          {askCode && !recoveryCode && (
            <AuthenticatorCodeInput
              key={fields.code.key}
              field={fields.code}
              label="Authentication code"
              description="Two-step sign-in is on: type the 6-digit code your authenticator app shows for Home Guard."
              autoFocus
              serverError={codeError}
            />
          )}
          {askCode && recoveryCode && (
            <TextInput
              {...getInputProps(fields.code, { type: 'text' })}
              key={`recovery-${fields.code.key}`}
              label="Recovery code"
              description="Type one of the recovery codes you saved when you turned on two-step sign-in. Each one works once."
              placeholder="3f9a2-c07b1"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              autoFocus
              error={fields.code.errors?.[0] ?? codeError}
            />
          )}
          {/* On a phone the two links wrap: "Forgot password?" stays on the right. */}
          <Group mt={-8}>
            {askCode && (
              <Anchor component="button" type="button" size="sm" onClick={switchCode}>
                {recoveryCode ? 'Use your authenticator app' : 'Lost your phone? Use a recovery code'}
              </Anchor>
            )}
            <AnchorLink to="/auth/forgot-password" search={search} size="sm" ml="auto">
              Forgot password?
            </AnchorLink>
          </Group>
          <Button type="submit" loading={submitting.busy} fullWidth size="md">
            Log In
          </Button>
        </Stack>
      </form>
      {/* An installed app has no back button: the way back from "Add new account" to the picker. */}
      {accounts.length > 0 && (
        <Text size="sm" ta="center">
          <AnchorLink to="/auth/authenticate" search={search} fw={600}>
            Choose a saved account
          </AnchorLink>
        </Text>
      )}
      {registrationOpen !== false && (
        <Text size="sm" ta="center">
          Don't have an account?{' '}
          <AnchorLink to="/auth/register" search={search} fw={600}>
            Register
          </AnchorLink>
        </Text>
      )}
    </AuthCard>
  );
}
