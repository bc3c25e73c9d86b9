/** Dates in the admin area: the long full-date format (spec §9), with the time. */
const LONG = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short' });

export function longDate(iso: string | null | undefined): string {
  return iso ? LONG.format(new Date(iso)) : 'never';
}

export const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

/** The page numbers around the current one: two either side (spec §2, §9), so fewer near either end. */
export function pageWindow(current: number, total: number): number[] {
  const first = Math.max(1, current - 2);
  const last = Math.min(total, current + 2);
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i);
}

/** A session's status (spec §4): Active/Inactive, ' (Expired)' once expires_at has passed, red unless active and unexpired. */
export function statusOf(session: { is_active: boolean; expires_at: string | null }, now: number): { label: string; red: boolean } {
  const expired = session.expires_at !== null && new Date(session.expires_at).getTime() <= now;
  return { label: `${session.is_active ? 'Active' : 'Inactive'}${expired ? ' (Expired)' : ''}`, red: !session.is_active || expired };
}
