import { getFormProps, getInputProps } from '@conform-to/react';
import { Button, Group, Paper, PasswordInput, Stack, Switch, TextInput } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { z } from 'zod';
import { adminUserDetailSchema, type AdminUserDetail } from '../../../../contract/admin';
import { callApi } from '../../../api/client';
import { useSession } from '../../../app/session-context';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { useFormDraft } from '../../../app/form-draft';
import { ButtonLink } from '../../../ui/links';
import { OutcomeAlert } from '../../../ui/OutcomeAlert';
import { useAsyncAction } from '../../../ui/use-async-action';
import { useSchemaForm } from '../../../ui/use-schema-form';
import { AdminPage } from '../shared/AdminPage';
import { RecordPlaceholder } from '../shared/RecordPlaceholder';
import { useApiData } from '../shared/use-api-data';
import { AccountAccessSection } from './AccountAccessSection';
import { SetPasswordSection } from './SetPasswordSection';
import { TwoStepAdminSection } from './TwoStepAdminSection';
import { GroupsInput } from './GroupsInput';
import { editUserFormSchema } from './user-forms';
import { VERBATIM } from '../shared/form-fields';

function EditUserForm({ user }: { user: AdminUserDetail }) {
  const session = useSession();
  const navigate = useNavigate();
  const saving = useAsyncAction('Saving the user');
  const [confirmDelete, setConfirmDelete] = useState(false);
  const path = `/api/v1/admin/users/${encodeURIComponent(user.id)}`;
  const self = user.id === session.state.profile?.id;
  const draft = useFormDraft(`user-edit-${user.id}`, { full_name: user.full_name, email: user.email, username: user.username, phone_number: user.phone_number ?? '', is_admin: user.is_admin ? 'on' : '', groups: user.groups.join(', '), edit_version: user.edit_version });
  const [form, fields] = useSchemaForm({
    id: `edit-user-${user.id}`,
    defaultValue: draft.defaults,
    schema: editUserFormSchema,
    onValid: (value) =>
      saving.run(async () => {
        await callApi(session.connection, 'PUT', path, adminUserDetailSchema, { ...value, phone_number: value.phone_number ?? null });
        draft.clear();
        // Edited oneself: the profile on screen is stale. Reloading it lets the guards act at once
        // (no longer an administrator: out of the admin area; a new email: verification).
        if (self) await session.authenticate();
        await navigate({ to: '/admin/users/view/$userId', params: { userId: user.id } });
      }),
  });
  const ownEmailChanging = self && (fields.email.value ?? '').trim().toLowerCase() !== user.email;
  const remove = () =>
    saving.run(async () => {
      setConfirmDelete(false);
      await callApi(session.connection, 'DELETE', path, z.object({}));
      draft.clear();
      await navigate({ to: '/admin/users' });
    });

  return (
    <form {...getFormProps(form)} onChange={draft.save}>
      <Paper withBorder radius="md" p="lg" maw={560}>
        <Stack gap="sm">
          <OutcomeAlert outcome={saving.outcome} />
          <input {...getInputProps(fields.edit_version, { type: 'hidden' })} key={fields.edit_version.key} />
          <TextInput {...getInputProps(fields.full_name, { type: 'text' })} key={fields.full_name.key} label="Name" error={fields.full_name.errors?.[0]} />
          <TextInput {...getInputProps(fields.email, { type: 'email' })} key={fields.email.key} label="Email" description="A new address must be verified again, and signs the account out of every service" error={fields.email.errors?.[0]} />
          {ownEmailChanging && (
            <PasswordInput
              {...getInputProps(fields.current_password, { type: 'password' })}
              key={fields.current_password.key}
              label="Current Password"
              description="Your own email changes only with your password, as on Personal Info"
              autoComplete="current-password"
              error={fields.current_password.errors?.[0]}
            />
          )}
          <TextInput {...getInputProps(fields.username, { type: 'text' })} key={fields.username.key} {...VERBATIM} label="Username" description="Services that want one, such as Gitea, read it" autoComplete="off" error={fields.username.errors?.[0]} />
          <TextInput {...getInputProps(fields.phone_number, { type: 'tel' })} key={fields.phone_number.key} label="Phone Number" error={fields.phone_number.errors?.[0]} />
          <GroupsInput key={fields.groups.key} field={fields.groups} />
          <Switch {...getInputProps(fields.is_admin, { type: 'checkbox' })} key={fields.is_admin.key} label="Is Admin" />
          <Group mt="sm" justify="space-between">
            <Group>
              <Button type="submit" loading={saving.busy}>
                Save
              </Button>
              <ButtonLink to="/admin/users/view/$userId" params={{ userId: user.id }} variant="default" onClick={draft.clear}>
                Cancel
              </ButtonLink>
            </Group>
            {/* One's own account is not deleted here (the server refuses): another administrator can. */}
            {!self && (
              <Button color="red" variant="light" onClick={() => setConfirmDelete(true)}>
                Delete User
              </Button>
            )}
          </Group>
        </Stack>
      </Paper>
      <ConfirmDialog
        opened={confirmDelete}
        title="Delete this user?"
        message={`${user.full_name} and all their sessions are deleted. This cannot be undone.`}
        confirmLabel="Delete"
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => void remove()}
      />
    </form>
  );
}

export function EditUserPage({ userId }: { userId: string }) {
  const { data: user, loading, notFound } = useApiData(`/api/v1/admin/users/${encodeURIComponent(userId)}`, adminUserDetailSchema);
  if (!user) return <RecordPlaceholder loading={loading} notFound={notFound} loadingLabel="Loading user..." missing="This user does not exist." title="User" list="/admin/users" />;
  return (
    <AdminPage title={`Edit ${user.full_name}`}>
      <EditUserForm user={user} />
      <SetPasswordSection user={user} />
      <TwoStepAdminSection user={user} />
      <AccountAccessSection user={user} />
    </AdminPage>
  );
}
