import { getFormProps, getInputProps } from '@conform-to/react';
import { Button, Group, Paper, PasswordInput, Stack, Switch, TextInput } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { adminUserDetailSchema } from '../../../../contract/admin';
import { callApi } from '../../../api/client';
import { useSession } from '../../../app/session-context';
import { useFormDraft } from '../../../app/form-draft';
import { ButtonLink } from '../../../ui/links';
import { OutcomeAlert } from '../../../ui/OutcomeAlert';
import { useAsyncAction } from '../../../ui/use-async-action';
import { useSchemaForm } from '../../../ui/use-schema-form';
import { AdminPage } from '../shared/AdminPage';
import { GroupsInput } from './GroupsInput';
import { createUserFormSchema } from './user-forms';
import { VERBATIM } from '../shared/form-fields';

export function CreateUserPage() {
  const session = useSession();
  const navigate = useNavigate();
  const creating = useAsyncAction('Creating the user');
  const draft = useFormDraft('user-create');
  const [form, fields] = useSchemaForm({
    id: 'create-user',
    defaultValue: draft.defaults,
    schema: createUserFormSchema,
    onValid: ({ repeat_password: _repeat, ...user }) =>
      creating.run(async () => {
        await callApi(session.connection, 'POST', '/api/v1/admin/users', adminUserDetailSchema, user);
        draft.clear();
        await navigate({ to: '/admin/users' });
      }),
  });
  return (
    <AdminPage title="Add User">
      <form {...getFormProps(form)} onChange={draft.save}>
        <Paper withBorder radius="md" p="lg" maw={560}>
          <Stack gap="sm">
            <OutcomeAlert outcome={creating.outcome} />
            <TextInput {...getInputProps(fields.full_name, { type: 'text' })} key={fields.full_name.key} label="Name" error={fields.full_name.errors?.[0]} />
            <TextInput {...getInputProps(fields.email, { type: 'email' })} key={fields.email.key} label="Email" error={fields.email.errors?.[0]} />
            <TextInput {...getInputProps(fields.username, { type: 'text' })} key={fields.username.key} {...VERBATIM} label="Username" description="For services that want one, such as Gitea. Left empty, it is made from the email" autoComplete="off" error={fields.username.errors?.[0]} />
            <PasswordInput {...getInputProps(fields.password, { type: 'password' })} key={fields.password.key} label="Password" autoComplete="new-password" error={fields.password.errors?.[0]} />
            <PasswordInput {...getInputProps(fields.repeat_password, { type: 'password' })} key={fields.repeat_password.key} label="Repeat Password" autoComplete="new-password" error={fields.repeat_password.errors?.[0]} />
            <GroupsInput key={fields.groups.key} field={fields.groups} />
            <Switch {...getInputProps(fields.is_admin, { type: 'checkbox' })} key={fields.is_admin.key} label="Is Admin" />
            <Group mt="sm">
              <Button type="submit" loading={creating.busy}>
                Create
              </Button>
              <ButtonLink to="/admin/users" variant="default" onClick={draft.clear}>
                Cancel
              </ButtonLink>
            </Group>
          </Stack>
        </Paper>
      </form>
    </AdminPage>
  );
}
