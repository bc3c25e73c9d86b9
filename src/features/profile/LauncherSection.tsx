import { Avatar, Paper, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { launcherSchema } from '../../../contract/services';
import { ServerIcon } from '../../ui/icons';
import { useOwnData } from './use-own-data';

/**
 * Home's services to open: those the person may sign in to that have a home page. Nothing is
 * shown while there are none, or while they cannot be loaded (offline, Home still works).
 */
export function LauncherSection() {
  const { data } = useOwnData('/api/v1/auth/launcher', launcherSchema);
  if (!data || data.items.length === 0) return null;
  return (
    <Stack gap="sm" w="100%" maw={620}>
      <Title order={2} fz="lg">
        Your Services
      </Title>
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
        {data.items.map((service) => (
          <UnstyledButton key={service.id} component="a" href={service.launch_url} target="_blank" rel="noopener noreferrer">
            <Paper withBorder radius="md" p="md" h="100%">
              <Stack align="center" gap="xs" ta="center">
                <Avatar src={service.icon_url} alt="" size={40} radius="sm" color="blue">
                  <ServerIcon size={20} />
                </Avatar>
                <Text fw={600} size="sm" lineClamp={2}>
                  {service.name}
                </Text>
              </Stack>
            </Paper>
          </UnstyledButton>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
