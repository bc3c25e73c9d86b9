import { AppShell, Group, Loader, Menu, NavLink, ScrollArea, Stack, Tabs, Text, UnstyledButton } from '@mantine/core';
import { useElementSize, useMediaQuery, useMergedRef } from '@mantine/hooks';
import { Link, Outlet, useLocation, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { AppNotices, useNoticesInShell } from '../../app/Notices';
import { useSession } from '../../app/session-context';
import { useSignOut } from '../../app/use-sign-out';
import { AccountAvatar } from '../../ui/AccountAvatar';
import { InShell } from '../../ui/in-shell';
import { LogoutIcon, SwitchIcon } from '../../ui/icons';
import { Logo } from '../../ui/Logo';
import { isActive, visibleGroups } from './navigation';

function AccountMenu() {
  const session = useSession();
  const { activeAccount, profile } = useSnapshot(session.state);
  const name = profile?.full_name ?? activeAccount?.label ?? '';
  const signingOut = useSignOut();
  // Kept open while signing out, and afterwards when it failed, to say so; a new opening starts clean.
  // Inside the header, not a portal: its items are then in the banner landmark with their button.
  return (
    <Menu position="bottom-end" width={240} withinPortal={false} withInitialFocusPlaceholder={false} onOpen={signingOut.forgetOutcome}>
      <Menu.Target>
        <UnstyledButton aria-label={name ? `${name}, account menu` : 'Account menu'}>
          <Group gap="xs" wrap="nowrap">
            <AccountAvatar src={profile?.profile_picture ?? activeAccount?.profilePicture} name={name} decorative radius="xl" size={34} />
            <Text size="sm" fw={500} visibleFrom="sm" truncate maw={180}>
              {name}
            </Text>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{activeAccount?.email}</Menu.Label>
        <Menu.Item leftSection={<SwitchIcon size={16} />} onClick={() => void session.chooseAnotherAccount()}>
          Switch account
        </Menu.Item>
        <Menu.Item color="red.9" leftSection={signingOut.busy ? <Loader size={16} color="red.9" /> : <LogoutIcon size={16} />} closeMenuOnClick={false} disabled={signingOut.busy} onClick={signingOut.signOut}>
          Sign Out
        </Menu.Item>
        {signingOut.outcome && (
          <Text role="alert" size="xs" c="red" px="sm" py={6}>
            {signingOut.outcome.message}
          </Text>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

/** Sidebar on wide screens, a tab strip on narrow ones (spec §2). */
export function MainShell() {
  const session = useSession();
  const { profile, activeAccount } = useSnapshot(session.state);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const wide = useMediaQuery('(min-width: 48em)', true);
  const groups = visibleGroups(profile?.is_admin ?? false);
  const items = groups.flatMap((group) => group.items);
  const activeTo = items.find((item) => isActive(item, pathname))?.to ?? null;
  useNoticesInShell();
  const tabStrip = useRef<HTMLDivElement>(null);
  const { ref: measureStrip, width: stripWidth } = useElementSize<HTMLDivElement>();
  const tabStripRef = useMergedRef(tabStrip, measureStrip);
  // On a narrow screen the strip is wider than the page: bring the current page's tab into sight
  // (an admin page's tab is otherwise off to the right), again when the strip's width changes (a
  // phone turned). Horizontally only: the page keeps its place.
  useEffect(() => {
    const strip = tabStrip.current;
    const tab = strip?.querySelector('[data-active]');
    if (!strip || !tab) return;
    const [stripBox, tabBox] = [strip.getBoundingClientRect(), tab.getBoundingClientRect()];
    strip.scrollLeft += tabBox.left - stripBox.left - (stripBox.width - tabBox.width) / 2;
  }, [activeTo, wide, stripWidth]);

  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: true } }} padding="md">
      <AppShell.Header px="md">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Link to="/" style={{ color: 'inherit', textDecoration: 'none' }}>
            <Logo />
          </Link>
          <AccountMenu />
        </Group>
      </AppShell.Header>
      {/* Narrow, the sidebar is only moved off screen: inert keeps its links out of the tab order and of screen readers. */}
      <AppShell.Navbar p="sm" aria-label="Main navigation" inert={!wide}>
        <AppShell.Section grow component={ScrollArea}>
          <Stack gap="lg">
            {groups.map((group) => (
              <div key={group.label}>
                <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mb={4}>
                  {group.label}
                </Text>
                {group.items.map((item) => (
                  <NavLink key={item.to} component={Link} to={item.to} label={item.label} leftSection={<item.icon size={18} />} active={isActive(item, pathname)} variant="light" style={{ borderRadius: 'var(--mantine-radius-md)' }} />
                ))}
              </div>
            ))}
          </Stack>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        <AppNotices pageBroker={session.connection.mode === 'page'} inShell />
        {!wide && (
          // Each tab opens a page: the arrow keys only move between them (Enter opens one), and the
          // strip is the page's navigation landmark, as the side bar is on a wide screen.
          <Tabs component="nav" aria-label="Main navigation" value={activeTo} onChange={(to) => to && void navigate({ to })} activateTabWithKeyboard={false} mb="md" variant="pills">
            <ScrollArea type="never" viewportRef={tabStripRef}>
              <Tabs.List style={{ flexWrap: 'nowrap' }}>
                {items.map((item) => (
                  <Tabs.Tab key={item.to} value={item.to} leftSection={<item.icon size={16} />}>
                    {item.label}
                  </Tabs.Tab>
                ))}
              </Tabs.List>
            </ScrollArea>
          </Tabs>
        )}
        <InShell.Provider value={true}>
          {/* A page belongs to the account it was opened for. Another tab may switch the active
              account under it (a service's login_hint): the page starts over as the new one's,
              rather than listing the old one's devices under the new name, its buttons acting
              for the new one. */}
          <Outlet key={activeAccount?.accountId} />
        </InShell.Provider>
      </AppShell.Main>
    </AppShell>
  );
}
