import { Button, Group, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import { apiServiceSchema } from '../../../../contract/services';
import { callApi } from '../../../api/client';
import { useSession } from '../../../app/session-context';
import { useAsyncAction } from '../../../ui/use-async-action';
import { AdminPage } from '../shared/AdminPage';
import { RecordPlaceholder } from '../shared/RecordPlaceholder';
import { useApiData } from '../shared/use-api-data';
import { formValuesOf } from './service-form';
import { ServiceForm } from './ServiceForm';

export function EditServicePage({ serviceId }: { serviceId: string }) {
  const session = useSession();
  const path = `/api/v1/admin/api-services/${encodeURIComponent(serviceId)}`;
  const { data: service, loading, notFound, reload } = useApiData(path, apiServiceSchema);
  const updating = useAsyncAction('Updating the service');
  const [updated, setUpdated] = useState(false);
  // The form is made anew with the saved service (its key) under the open modal: the Update
  // button focus would go back to is gone, so the new one gets it.
  const closeModal = () => {
    setUpdated(false);
    requestAnimationFrame(() => document.querySelector<HTMLButtonElement>('main form button[type="submit"]')?.focus());
  };

  if (!service) return <RecordPlaceholder loading={loading} notFound={notFound} loadingLabel="Loading API Service..." missing="This service does not exist." title="API Service" list="/admin/api-services" />;
  return (
    <AdminPage title={`Edit ${service.name}`}>
      <ServiceForm
        key={service.updated_at}
        mode="edit"
        draftId={`service-edit-${service.id}`}
        defaults={formValuesOf(service)}
        busy={updating.busy}
        outcome={updating.outcome}
        onSubmit={({ is_active: _enabled, ...value }) =>
          updating.run(async () => {
            await callApi(session.connection, 'PUT', path, apiServiceSchema, value);
            reload();
            setUpdated(true);
          })
        }
      />
      <Modal opened={updated} onClose={closeModal} returnFocus={false} title="Service Updated" centered>
        <Text size="sm">Service has updated successfully!</Text>
        <Group justify="flex-end" mt="md">
          <Button onClick={closeModal}>Close</Button>
        </Group>
      </Modal>
    </AdminPage>
  );
}
