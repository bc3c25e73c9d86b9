import { describe, expect, it } from 'vitest';
import { isActive, NAVIGATION, visibleGroups } from './navigation';

const item = (label: string) => NAVIGATION.flatMap((g) => g.items).find((i) => i.label === label)!;

describe('navigation', () => {
  it('highlights Home only on exactly /, the others by prefix', () => {
    expect(isActive(item('Home'), '/')).toBe(true);
    expect(isActive(item('Home'), '/personal-info')).toBe(false);
    expect(isActive(item('Users'), '/admin/users/view/1')).toBe(true);
    expect(isActive(item('Users'), '/admin/user-sessions')).toBe(false);
    expect(isActive(item('User Sessions'), '/admin/user-sessions')).toBe(true);
  });

  it('shows the Admin group to administrators only', () => {
    expect(visibleGroups(false).map((g) => g.label)).toEqual(['Basic']);
    expect(visibleGroups(true).map((g) => g.label)).toEqual(['Basic', 'Admin']);
  });
});
