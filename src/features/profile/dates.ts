/** Dates on Personal Info, in the browser's language: "Dec 1, 2026" and "Dec 1, 2026, 4:56 PM". */
const DAY = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const MOMENT = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export const dayOf = (iso: string) => DAY.format(new Date(iso));
export const momentOf = (iso: string) => MOMENT.format(new Date(iso));
