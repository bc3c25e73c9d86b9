import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useSnapshot } from 'valtio';
import { useSession } from '../../app/session-context';
import { useSignOut } from '../../app/use-sign-out';
import { AccountAvatar } from '../../ui/AccountAvatar';
import { LogoutIcon } from '../../ui/icons';
import { OutcomeAlert } from '../../ui/OutcomeAlert';
import { LauncherSection } from './LauncherSection';

/** The profile welcome panel (spec §2), and below it the services the person can open. */
export function HomePage() {
  const session = useSession();
  const { profile, activeAccount } = useSnapshot(session.state);
  const name = profile?.full_name ?? activeAccount?.label ?? '';
  const signingOut = useSignOut();
  return (
    <Stack align="center" gap="xl" py={{ base: 'md', sm: 48 }}>
      <Paper withBorder radius="lg" p={{ base: 'lg', sm: 40 }} w="100%" maw={620} shadow="xs">
        <Stack align="center" ta="center" gap="md">
          <AccountAvatar src={profile?.profile_picture ?? activeAccount?.profilePicture} name={name} size={96} radius={96} />
          <Title order={1} fz={{ base: 24, sm: 30 }}>
            Welcome, {name}
          </Title>
          <Text c="dimmed" maw={440}>
            Manage your info, private and security to make Home Guard work better for you.
          </Text>
          <Button variant="light" color="red" leftSection={<LogoutIcon size={16} />} loading={signingOut.busy} onClick={signingOut.signOut}>
            Sign Out
          </Button>
          <OutcomeAlert outcome={signingOut.outcome} />
        </Stack>
      </Paper>
      <LauncherSection />
    </Stack>
  );
}
