import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { createdApiServiceSchema, IDEMPOTENCY_KEY_HEADER } from '../../../../contract/services';
import { callApi } from '../../../api/client';
import { useSession } from '../../../app/session-context';
import { useAsyncAction } from '../../../ui/use-async-action';
import { AdminPage } from '../shared/AdminPage';
import { CredentialsModal, type Credentials } from './CredentialsModal';
import { NEW_SERVICE_DEFAULTS } from './service-form';
import { ServiceForm } from './ServiceForm';

export function CreateServicePage() {
  const session = useSession();
  const navigate = useNavigate();
  const creating = useAsyncAction('Creating the service');
  const [credentials, setCredentials] = useState<Credentials | null>(null);
  return (
    <AdminPage title="Add API Service">
      <ServiceForm
        mode="create"
        draftId="service-create"
        defaults={NEW_SERVICE_DEFAULTS}
        busy={creating.busy}
        outcome={creating.outcome}
        // The key stays while the values do: Create clicked again after an answer that never came
        // gets the service the first click made, not a second one.
        onSubmit={(value, sendingKey) =>
          creating.run(async () => {
            const created = await callApi(session.connection, 'POST', '/api/v1/admin/api-services', createdApiServiceSchema, value, { [IDEMPOTENCY_KEY_HEADER]: sendingKey });
            setCredentials(created.credentials);
          })
        }
      />
      <CredentialsModal
        credentials={credentials}
        onClose={() => {
          setCredentials(null);
          void navigate({ to: '/admin/api-services' });
        }}
      />
    </AdminPage>
  );
}
