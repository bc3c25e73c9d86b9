import { Anchor, Group, Text } from '@mantine/core';
import { useSnapshot } from 'valtio';
import { useSession } from '../../app/session-context';
import { useSignOut } from '../../app/use-sign-out';

/**
 * The way out of the verification flow, which sits outside the app's shell and its account menu:
 * someone who registered with a mistyped email, or a device whose other accounts are wanted,
 * would otherwise be held on these pages.
 */
export function VerifyExit() {
  const session = useSession();
  const { activeAccount } = useSnapshot(session.state);
  const signingOut = useSignOut();
  return (
    <Text size="sm" c="dimmed" ta="center" style={{ overflowWrap: 'anywhere' }}>
      {activeAccount && <>Signed in as {activeAccount.email}. </>}
      <Group component="span" gap="xs" display="inline-flex">
        <Anchor component="button" type="button" size="sm" onClick={() => void session.chooseAnotherAccount()}>
          Switch account
        </Anchor>
        <Anchor component="button" type="button" size="sm" c="red" disabled={signingOut.busy} onClick={signingOut.signOut}>
          Sign Out
        </Anchor>
      </Group>
      {signingOut.outcome && (
        <Text role="alert" size="sm" c="red" component="span" display="block">
          {signingOut.outcome.message}
        </Text>
      )}
    </Text>
  );
}
