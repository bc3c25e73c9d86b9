import { Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useSnapshot } from 'valtio';
import { useSession } from '../../app/session-context';
import { AccountAvatar } from '../../ui/AccountAvatar';
import { lazyPage } from '../../app/lazy-page';

// Its dialog (Mantine's Modal) would otherwise join the first load of every page, Sign In's too.
const ChangePasswordSection = lazyPage(() => import('./ChangePasswordSection'), 'ChangePasswordSection', null);
const TwoStepSection = lazyPage(() => import('./TwoStepSection'), 'TwoStepSection', null);
const DevicesSection = lazyPage(() => import('./DevicesSection'), 'DevicesSection', null);
const ServicesSection = lazyPage(() => import('./ServicesSection'), 'ServicesSection', null);
const ActivitySection = lazyPage(() => import('./ActivitySection'), 'ActivitySection', null);

/** The profile picture and full name, read-only (spec §2), with the username services read; changing one's password (ASVS 2.1.5), two-step sign-in, the devices and services signed in, and the account's recent activity. */
export function PersonalInfoPage() {
  const session = useSession();
  const { profile, activeAccount } = useSnapshot(session.state);
  const name = profile?.full_name ?? activeAccount?.label ?? '';
  return (
    <Stack gap="lg" maw={720}>
      <div>
        <Title order={1} fz={28}>
          Personal Info
        </Title>
        <Text c="dimmed">Your details, as the services you sign in to see them.</Text>
      </div>
      <Paper withBorder radius="lg" p="lg">
        <Group gap="lg" align="center" wrap="nowrap">
          <AccountAvatar src={profile?.profile_picture ?? activeAccount?.profilePicture} name={name} size={88} radius={88} />
          <Stack gap="sm" style={{ flex: 1 }}>
            <TextInput label="Full name" value={name} readOnly />
            {profile && <TextInput label="Username" description="Services such as Gitea name your account with it" value={profile.username} readOnly />}
          </Stack>
        </Group>
      </Paper>
      <ChangePasswordSection />
      <TwoStepSection />
      <DevicesSection />
      <ServicesSection />
      <ActivitySection />
    </Stack>
  );
}
