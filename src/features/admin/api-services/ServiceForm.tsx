import { getFormProps, getInputProps, getTextareaProps } from '@conform-to/react';
import { Button, Group, Paper, Stack, Switch, Textarea, TextInput, Title } from '@mantine/core';
import type { z } from 'zod';
import { useFormDraft } from '../../../app/form-draft';
import { ButtonLink } from '../../../ui/links';
import { OutcomeAlert, type Outcome } from '../../../ui/OutcomeAlert';
import { useSchemaForm } from '../../../ui/use-schema-form';
import { firstError, VERBATIM } from '../shared/form-fields';
import { serviceFormSchema } from './service-form';

export type ServiceFormValue = z.output<typeof serviceFormSchema>;

const PUBLIC_CLIENT = 'For mobile, desktop and single-page apps, which cannot keep a secret: it gets no client secret and must use PKCE';
/** What the switch does to a service's secret, when editing one. */
const publicClientEffect = (mode: 'create' | 'edit', isPublic: boolean) => {
  if (mode === 'create') return PUBLIC_CLIENT;
  return isPublic ? `${PUBLIC_CLIENT}. Turned off, it needs new credentials: regenerate them on its page` : `${PUBLIC_CLIENT}. Turned on, its current secret stops working and everyone signed in to it is signed out`;
};

/** Create and edit share this form; only creating shows the 'Enabled by default' toggle. */
export function ServiceForm({ draftId, defaults, mode, busy, outcome, onSubmit }: { draftId: string; defaults: Record<string, string>; mode: 'create' | 'edit'; busy: boolean; outcome: Outcome; onSubmit: (value: ServiceFormValue, sendingKey: string) => Promise<boolean> }) {
  const draft = useFormDraft(draftId, defaults);
  const [form, fields] = useSchemaForm({
    id: `service-${mode}`,
    defaultValue: draft.defaults,
    schema: serviceFormSchema,
    onValid: (value) => onSubmit(value, draft.sendingKey(value)).then((done) => done && draft.clear()),
  });
  return (
    <form {...getFormProps(form)} onChange={draft.save}>
      <Stack gap="md" maw={760}>
        <OutcomeAlert outcome={outcome} />
        {mode === 'edit' && <input {...getInputProps(fields.edit_version, { type: 'hidden' })} key={fields.edit_version.key} />}
        <Paper withBorder radius="md" p="lg">
          <Stack gap="sm">
            <Title order={2} fz="lg">
              Service Information
            </Title>
            <TextInput {...getInputProps(fields.name, { type: 'text' })} key={fields.name.key} label="Name" placeholder="Grafana" error={fields.name.errors?.[0]} />
            <Textarea {...getTextareaProps(fields.description)} key={fields.description.key} label="Description" placeholder="What this service is" autosize minRows={2} error={fields.description.errors?.[0]} />
            <TextInput {...getInputProps(fields.launch_url, { type: 'url' })} key={fields.launch_url.key} {...VERBATIM} label="Home Page" description="Optional. Where people open it: their Home lists it" placeholder="https://grafana.home.lan" error={fields.launch_url.errors?.[0]} />
            <TextInput {...getInputProps(fields.icon_url, { type: 'url' })} key={fields.icon_url.key} {...VERBATIM} label="Icon URL" description="Optional. An image shown on Home and on the consent screen" error={fields.icon_url.errors?.[0]} />
          </Stack>
        </Paper>
        <Paper withBorder radius="md" p="lg">
          <Stack gap="sm">
            <Title order={2} fz="lg">
              OpenID Connect
            </Title>
            <Textarea {...getTextareaProps(fields.redirect_uris)} key={fields.redirect_uris.key} {...VERBATIM} label="Redirect URIs" description="One per line, exactly as the service sends them" autosize minRows={2} error={firstError(fields.redirect_uris)} />
            <TextInput {...getInputProps(fields.scopes, { type: 'text' })} key={fields.scopes.key} {...VERBATIM} label="Scopes" description="Separated by spaces: openid email profile offline_access groups" error={firstError(fields.scopes)} />
            <TextInput {...getInputProps(fields.grant_types, { type: 'text' })} key={fields.grant_types.key} {...VERBATIM} label="Grant Types" description="Separated by spaces; empty means authorization_code" error={firstError(fields.grant_types)} />
            <Switch {...getInputProps(fields.public_client, { type: 'checkbox' })} key={fields.public_client.key} label="Public Client" description={publicClientEffect(mode, defaults.public_client === 'on')} />
          </Stack>
        </Paper>
        <Paper withBorder radius="md" p="lg">
          <Stack gap="sm">
            <Title order={2} fz="lg">
              Access
            </Title>
            <TextInput {...getInputProps(fields.allowed_groups, { type: 'text' })} key={fields.allowed_groups.key} {...VERBATIM} label="Allowed Groups" description="Separated by commas. Only people in one of these groups may sign in to it; empty lets everyone in" error={firstError(fields.allowed_groups)} />
            <Switch
              {...getInputProps(fields.require_two_step, { type: 'checkbox' })}
              key={fields.require_two_step.key}
              label="Require Two-Step Sign-In"
              description="Only sign-ins made with an authenticator app's code (or a recovery code) may use it; anyone else is told how to turn it on"
            />
          </Stack>
        </Paper>
        {mode === 'create' && <Switch {...getInputProps(fields.is_active, { type: 'checkbox' })} key={fields.is_active.key} label="Enabled by default" />}
        <Group>
          <Button type="submit" loading={busy}>
            {mode === 'create' ? 'Create' : 'Update'}
          </Button>
          <ButtonLink to="/admin/api-services" variant="default" onClick={draft.clear}>
            Cancel
          </ButtonLink>
        </Group>
      </Stack>
    </form>
  );
}
