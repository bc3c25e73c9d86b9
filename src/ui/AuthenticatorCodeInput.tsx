import { getInputProps, type FieldMetadata } from '@conform-to/react';
import { TextInput, type TextInputProps } from '@mantine/core';

type Props = Pick<TextInputProps, 'label' | 'description' | 'autoFocus'> & {
  field: FieldMetadata<string | undefined>;
  /** A refusal from the server, shown when the form itself has none. */
  serverError?: string | undefined;
};

/** An authenticator app's 6-digit code: a number pad on phones, and "123 456" as the app shows it fits. */
export function AuthenticatorCodeInput({ field, serverError, ...props }: Props) {
  return <TextInput {...getInputProps(field, { type: 'text' })} placeholder="123 456" inputMode="numeric" autoComplete="one-time-code" maxLength={7} error={field.errors?.[0] ?? serverError} {...props} />;
}
