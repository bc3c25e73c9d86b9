import { Alert, Badge, Button, Divider, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Fragment, useEffect, useState } from 'react';
import { z } from 'zod';
import { ownSessionListSchema, type OwnSession } from '../../../contract/accounts';
import { callApi } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { useSession } from '../../app/session-context';
import { deviceSource } from '../../ui/device-source';
import { OutcomeAlert } from '../../ui/OutcomeAlert';
import { useAsyncAction } from '../../ui/use-async-action';

const WHEN = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Where the person is signed in to Home Guard, and signing out a device they do not recognise. */
export function DevicesSection() {
  const session = useSession();
  const [devices, setDevices] = useState<OwnSession[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const signingOut = useAsyncAction('Signing out a device');
  const [pendingId, setPendingId] = useState<string | null>(null);

  const load = () => {
    setLoadError(null);
    callApi(session.connection, 'GET', '/api/v1/auth/sessions', ownSessionListSchema).then(({ items }) => setDevices(items), (error: unknown) => setLoadError(errorMessage(error)));
  };
  useEffect(load, [session]);

  const signOut = (device: OwnSession) => {
    setPendingId(device.id);
    return signingOut.run(async () => {
      await callApi(session.connection, 'DELETE', `/api/v1/auth/sessions/${encodeURIComponent(device.id)}`, z.object({}));
      setDevices((current) => current?.filter((other) => other.id !== device.id) ?? null);
      signingOut.setOutcome({ kind: 'success', message: `${deviceSource(device.device_info)} is signed out.` });
    });
  };

  return (
    <Paper withBorder radius="lg" p="lg">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          Devices
        </Title>
        <Text size="sm" c="dimmed">
          Where you are signed in to Home Guard. If you do not recognise one, sign it out and change your password.
        </Text>
        <OutcomeAlert outcome={signingOut.outcome} />
        {loadError && (
          <Alert color="red" variant="light" role="alert">
            {loadError}{' '}
            <Button variant="subtle" size="compact-sm" onClick={load}>
              Try again
            </Button>
          </Alert>
        )}
        {devices?.map((device, index) => {
          const name = deviceSource(device.device_info);
          return (
            <Fragment key={device.id}>
              {index > 0 && <Divider />}
              <Group justify="space-between" wrap="nowrap" gap="sm">
                <div>
                  <Text size="sm" fw={600}>
                    {name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {device.ip_address ?? 'No IP available'} · {device.current ? 'Active now' : `Last active ${WHEN.format(new Date(device.last_active))}`}
                  </Text>
                </div>
                {device.current ? (
                  <Badge variant="light" style={{ flexShrink: 0 }}>
                    This device
                  </Badge>
                ) : (
                  <Button size="xs" variant="light" color="red" style={{ flexShrink: 0 }} aria-label={`Sign out ${name}`} loading={signingOut.busy && pendingId === device.id} disabled={signingOut.busy && pendingId !== device.id} onClick={() => void signOut(device)}>
                    Sign Out
                  </Button>
                )}
              </Group>
            </Fragment>
          );
        })}
      </Stack>
    </Paper>
  );
}
