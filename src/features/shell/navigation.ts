import type { ComponentType } from 'react';
import { DevicesIcon, HomeIcon, IdCardIcon, KeyIcon, ListIcon, ServerIcon, UsersIcon } from '../../ui/icons';

export type NavItem = { label: string; to: string; icon: ComponentType<{ size?: number }> };
export type NavGroup = { label: string; items: NavItem[]; adminOnly: boolean };

export const NAVIGATION: NavGroup[] = [
  {
    label: 'Basic',
    adminOnly: false,
    items: [
      { label: 'Home', to: '/', icon: HomeIcon },
      { label: 'Personal Info', to: '/personal-info', icon: IdCardIcon },
    ],
  },
  {
    label: 'Admin',
    adminOnly: true,
    items: [
      { label: 'API Services', to: '/admin/api-services', icon: ServerIcon },
      { label: 'Users', to: '/admin/users', icon: UsersIcon },
      { label: 'User Sessions', to: '/admin/user-sessions', icon: DevicesIcon },
      { label: 'Service Sessions', to: '/admin/service-sessions', icon: KeyIcon },
      { label: 'Audit Log', to: '/admin/audit-log', icon: ListIcon },
    ],
  },
];

/** Highlight by path prefix; Home only on exactly '/' (spec §2). */
export function isActive(item: NavItem, pathname: string): boolean {
  if (item.to === '/') return pathname === '/';
  return pathname === item.to || pathname.startsWith(`${item.to}/`);
}

export function visibleGroups(isAdmin: boolean): NavGroup[] {
  return NAVIGATION.filter((group) => !group.adminOnly || isAdmin);
}
