import { describe, expect, it } from 'vitest';
import { longDate, pageWindow, statusOf } from './format';

describe('admin formatting', () => {
  it('shows up to five page numbers, two either side of the current one', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 10)).toEqual([1, 2, 3]);
    expect(pageWindow(2, 10)).toEqual([1, 2, 3, 4]);
    expect(pageWindow(5, 10)).toEqual([3, 4, 5, 6, 7]);
    expect(pageWindow(10, 10)).toEqual([8, 9, 10]);
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
  });

  it("says 'never' for missing dates", () => {
    expect(longDate(null)).toBe('never');
    expect(longDate('2026-11-22T10:00:00.000Z')).toMatch(/2026/);
  });
});

describe('session status', () => {
  const now = Date.parse('2026-11-22T12:00:00Z');
  it('is green only when active and unexpired; an expired one says so in red', () => {
    expect(statusOf({ is_active: true, expires_at: '2026-12-01T00:00:00Z' }, now)).toEqual({ label: 'Active', red: false });
    expect(statusOf({ is_active: true, expires_at: '2026-11-22T12:00:00Z' }, now)).toEqual({ label: 'Active (Expired)', red: true });
    expect(statusOf({ is_active: false, expires_at: '2026-11-01T00:00:00Z' }, now)).toEqual({ label: 'Inactive (Expired)', red: true });
    expect(statusOf({ is_active: false, expires_at: null }, now)).toEqual({ label: 'Inactive', red: true });
  });
});
