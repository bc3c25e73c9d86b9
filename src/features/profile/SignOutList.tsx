import { Badge, Button, Divider, Group, Stack, Text } from '@mantine/core';
import { Fragment, useRef, useState, type ReactNode } from 'react';
import { OutcomeAlert } from '../../ui/OutcomeAlert';
import { useAsyncAction } from '../../ui/use-async-action';

export type SignOutListItem = {
  id: string;
  /** Shown in bold, and named by the row's Sign Out button for screen readers. */
  name: string;
  /** Shown under the name, and named by the button too: two devices of one kind differ only by it. */
  detail: string;
  leading?: ReactNode;
  /** This device's own row: marked, and without Sign Out. */
  current?: boolean;
  /** The button's label, when the row is not signed in anywhere ('Sign Out' otherwise). */
  action?: string;
};

type Props = {
  items: SignOutListItem[] | null;
  /** What an empty list says. */
  empty?: string;
  /** Signs the item out; answers the message to show. The list drops the row once it resolves. */
  signOut: (item: SignOutListItem) => Promise<string>;
  onSignedOut: (id: string) => void;
  /** One button for every row but this device's, shown while there are two or more of them. */
  signOutAll?: { label: string; signOut: () => Promise<string>; onSignedOut: () => void };
};

const ALL = 'all';

/** Rows of places the person is signed in (devices, services), each with its own Sign Out. */
export function SignOutList({ items, empty, signOut, onSignedOut, signOutAll }: Props) {
  const signingOut = useAsyncAction('Signing out');
  const [pendingId, setPendingId] = useState<string | null>(null);
  const list = useRef<HTMLDivElement>(null);
  const run = (id: string, act: () => Promise<string>, done: () => void) => {
    setPendingId(id);
    void signingOut.run(async () => {
      const message = await act();
      done();
      signingOut.setOutcome({ kind: 'success', message });
      // The button pressed is gone with its row: focus goes to the next one, else to the list, whose
      // message is then read, instead of falling back to the top of the page.
      requestAnimationFrame(() => (list.current?.querySelector<HTMLElement>('button:not([disabled])') ?? list.current)?.focus());
    });
  };
  const others = items?.filter((item) => !item.current).length ?? 0;

  return (
    <Stack gap="sm" ref={list} tabIndex={-1} style={{ outline: 'none' }}>
      <OutcomeAlert outcome={signingOut.outcome} />
      {items?.length === 0 && empty && (
        <Text size="sm" fs="italic">
          {empty}
        </Text>
      )}
      {items?.map((item, index) => (
        <Fragment key={item.id}>
          {index > 0 && <Divider />}
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <Group wrap="nowrap" gap="sm">
              {item.leading}
              <div>
                <Text size="sm" fw={600}>
                  {item.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {item.detail}
                </Text>
              </div>
            </Group>
            {item.current ? (
              <Badge variant="light" style={{ flexShrink: 0 }}>
                This device
              </Badge>
            ) : (
              <Button size="xs" variant="light" color="red" style={{ flexShrink: 0 }} aria-label={`${item.action ?? 'Sign out'} ${item.name}, ${item.detail.replaceAll(' · ', ', ')}`} loading={signingOut.busy && pendingId === item.id} disabled={signingOut.busy && pendingId !== item.id} onClick={() => run(item.id, () => signOut(item), () => onSignedOut(item.id))}>
                {item.action ?? 'Sign Out'}
              </Button>
            )}
          </Group>
        </Fragment>
      ))}
      {signOutAll && others >= 2 && (
        <Group>
          <Button variant="light" color="red" loading={signingOut.busy && pendingId === ALL} disabled={signingOut.busy && pendingId !== ALL} onClick={() => run(ALL, signOutAll.signOut, signOutAll.onSignedOut)}>
            {signOutAll.label}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
