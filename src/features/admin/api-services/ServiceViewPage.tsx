import { Badge, Button, Code, Group, Paper, SimpleGrid, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { z } from 'zod';
import { apiServiceSchema, credentialsSchema } from '../../../../contract/services';
import { callApi } from '../../../api/client';
import { useSession } from '../../../app/session-context';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { ButtonLink } from '../../../ui/links';
import { OutcomeAlert } from '../../../ui/OutcomeAlert';
import { useAsyncAction } from '../../../ui/use-async-action';
import { CopyButton } from '../../../ui/CopyButton';
import { AdminPage } from '../shared/AdminPage';
import { Detail } from '../shared/Detail';
import { RecordPlaceholder } from '../shared/RecordPlaceholder';
import { longDate } from '../shared/format';
import { useApiData } from '../shared/use-api-data';
import { ConnectionDetails } from './ConnectionDetails';
import { CredentialsModal, type Credentials } from './CredentialsModal';

const list = (items: string[]) => (items.length ? items.map((item) => <Text key={item} size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>{item}</Text>) : <Text size="sm">-</Text>);

export function ServiceViewPage({ serviceId }: { serviceId: string }) {
  const session = useSession();
  const { data: service, loading, notFound, reload, replace } = useApiData(`/api/v1/admin/api-services/${encodeURIComponent(serviceId)}`, apiServiceSchema);
  const action = useAsyncAction('Changing the service');
  const [confirming, setConfirming] = useState<'regenerate' | 'delete' | null>(null);
  const navigate = useNavigate();
  const [credentials, setCredentials] = useState<Credentials | null>(null);

  if (!service) return <RecordPlaceholder loading={loading} notFound={notFound} loadingLabel="Loading API Service..." missing="This service does not exist." title="API Service" list="/admin/api-services" />;

  const toggle = () =>
    action.run(async () => {
      // The answer is the service as it is now: shown at once, so a second click cannot toggle it back unseen.
      // It names the state wanted: another admin's click just before cannot make this one undo it.
      replace(await callApi(session.connection, 'PATCH', `/api/v1/admin/api-services/toggle/${service.id}`, apiServiceSchema, { is_active: !service.is_active }));
      reload();
    });
  const regenerate = () =>
    action.run(async () => {
      setConfirming(null);
      const answer = await callApi(session.connection, 'POST', `/api/v1/admin/api-services/${service.id}/credentials`, z.object({ credentials: credentialsSchema }));
      setCredentials(answer.credentials);
    });
  const remove = () =>
    action.run(async () => {
      setConfirming(null);
      await callApi(session.connection, 'DELETE', `/api/v1/admin/api-services/${service.id}`, z.object({}));
      await navigate({ to: '/admin/api-services' });
    });

  return (
    <AdminPage
      title={service.name}
      actions={
        <Group gap="xs">
          <ButtonLink to="/admin/api-services" variant="default">
            Back
          </ButtonLink>
          {/* A double click's second click (detail 2) is left out: the first one's answer may be back already, and it would toggle back. */}
          <Button variant="light" color={service.is_active ? 'red' : 'green'} loading={action.busy} onClick={(event) => (event.detail < 2 ? void toggle() : undefined)}>
            {service.is_active ? 'Disable' : 'Enable'}
          </Button>
          <ButtonLink to="/admin/api-services/edit/$serviceId" params={{ serviceId: service.id }}>
            Edit
          </ButtonLink>
          <Button variant="subtle" color="red" disabled={action.busy} onClick={() => setConfirming('delete')}>
            Delete
          </Button>
        </Group>
      }
    >
      <OutcomeAlert outcome={action.outcome} />
      <Paper withBorder radius="md" p="lg">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          <Detail label="Name">{service.name}</Detail>
          <Detail label="Status">
            <Badge color={service.is_active ? 'green' : 'red'} variant="light">
              {service.is_active ? 'Active' : 'Inactive'}
            </Badge>
          </Detail>
          <Detail label="Description">{service.description}</Detail>
          <Detail label="Home Page">{service.launch_url ?? '-'}</Detail>
          <Detail label="Redirect URIs">{list(service.redirect_uris)}</Detail>
          <Detail label="Scopes">{service.scopes.join(' ')}</Detail>
          <Detail label="Grant Types">{service.grant_types.join(' ')}</Detail>
          <Detail label="Allowed Groups">{service.allowed_groups.length > 0 ? service.allowed_groups.join(', ') : 'Everyone'}</Detail>
          <Detail label="Two-Step Sign-In">{service.require_two_step ? 'Required' : 'Not required'}</Detail>
          <Detail label="Created At">{longDate(service.created_at)}</Detail>
          <Detail label="Updated At">{longDate(service.updated_at)}</Detail>
          <Detail label="Client ID">
            <Group gap={4} wrap="nowrap">
              <Code>{service.client_id}</Code>
              <CopyButton value={service.client_id} label="Copy Client ID" />
            </Group>
          </Detail>
          <Detail label="Client Secret">
            {service.public_client ? (
              <Text size="sm">None: a public client, which must use PKCE</Text>
            ) : (
              <Group gap="sm">
                <Code>••••••••••••••••</Code>
                <Button size="xs" variant="default" onClick={() => setConfirming('regenerate')}>
                  Regenerate Credentials
                </Button>
              </Group>
            )}
          </Detail>
        </SimpleGrid>
      </Paper>
      <ConnectionDetails service={service.name} clientId={service.client_id} publicClient={service.public_client} />
      <ConfirmDialog
        opened={confirming === 'regenerate'}
        title="Regenerate credentials?"
        message={`The current client secret stops working at once; ${service.name} must be given the new one.`}
        confirmLabel="Regenerate"
        onCancel={() => setConfirming(null)}
        onConfirm={() => void regenerate()}
      />
      <ConfirmDialog
        opened={confirming === 'delete'}
        title="Delete this service?"
        message={`Everyone signed in to ${service.name} is signed out, and its client ID and secret stop working: connecting it again needs a new service. To stop sign-ins for a while instead, disable it. This cannot be undone.`}
        confirmLabel="Delete"
        onCancel={() => setConfirming(null)}
        onConfirm={() => void remove()}
      />
      <CredentialsModal credentials={credentials} onClose={() => setCredentials(null)} />
    </AdminPage>
  );
}
