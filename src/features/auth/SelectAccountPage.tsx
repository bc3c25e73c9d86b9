import { Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { useSnapshot } from 'valtio';
import type { FromSearch } from '../../app/guards';
import { useSession } from '../../app/session-context';
import { AccountAvatar } from '../../ui/AccountAvatar';
import { AccountLine } from '../../ui/AccountLine';
import { PlusIcon } from '../../ui/icons';
import { AnchorLink } from '../../ui/links';
import { OutcomeAlert } from '../../ui/OutcomeAlert';
import { AuthCard } from './AuthCard';
import { useRegistrationOpen } from './registration-status';
import classes from './SelectAccountPage.module.css';

export function SelectAccountPage({ search }: { search: FromSearch }) {
  const session = useSession();
  const { accounts, endedSession } = useSnapshot(session.state);
  const registrationOpen = useRegistrationOpen();
  return (
    <AuthCard title="Select Account" subtitle="Choose an account to continue.">
      {/* The server ended the account's session: it is gone from the list, and this says why. */}
      <OutcomeAlert outcome={endedSession && { kind: 'info', message: `You were signed out of ${endedSession.email}. Choose an account, or add it again.` }} />
      <Paper withBorder radius="md">
        <Stack gap={0} component="ul" className={classes.list} aria-label="Saved accounts">
          {accounts.map((account) => (
            <li key={account.accountId}>
              <UnstyledButton className={classes.row} onClick={() => void session.switchAccount(account.accountId)}>
                <AccountLine label={account.label} email={account.email} picture={account.profilePicture} />
              </UnstyledButton>
            </li>
          ))}
          <li>
            <AnchorLink to="/auth/login" search={search} className={classes.row} underline="never" c="inherit">
              <Group wrap="nowrap">
                <AccountAvatar src={null} name="" radius="xl" color="gray">
                  <PlusIcon size={18} />
                </AccountAvatar>
                <Text fw={600}>Add new account</Text>
              </Group>
            </AnchorLink>
          </li>
        </Stack>
      </Paper>
      <Text size="xs" c="dimmed" ta="center">
        Accounts are remembered on this device only.
        {registrationOpen !== false && (
          <>
            {' '}
            <AnchorLink to="/auth/register" search={search} size="xs" fw={600}>
              Create an account
            </AnchorLink>
          </>
        )}
      </Text>
    </AuthCard>
  );
}
