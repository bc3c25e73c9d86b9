import { getInputProps, type FieldMetadata } from '@conform-to/react';
import { TextInput } from '@mantine/core';
import { firstError, VERBATIM } from '../shared/form-fields';

/** A user's groups, typed separated by commas (the add and edit forms). */
export function GroupsInput<Form extends Record<string, unknown>>({ field }: { field: FieldMetadata<unknown, Form, string[]> }) {
  return <TextInput {...getInputProps(field, { type: 'text' })} {...VERBATIM} label="Groups" description="Separated by commas. Services that ask for the groups scope see them, to give access or roles" error={firstError(field)} />;
}
