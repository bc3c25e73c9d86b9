import type { Database } from '../db/database';

// A replica's clock a few seconds behind another's is no trouble; minutes are.
const TOLERANCE_MS = 5 * 60_000;

const minute = (at: number) => `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * Said at start when the clock reads earlier than the latest event the database recorded: set
 * back, or not set at all (a home server after a power cut, before NTP). Lockouts, resend waits
 * and the refresh grace are measured from times that seem to lie ahead, and timestamps written
 * now sort before older ones. Nothing is refused for it; the operator is told.
 */
export async function clockBehindDatabase(db: Database, now: number): Promise<string | undefined> {
  const row = await db.selectFrom('audit_events').select((eb) => eb.fn.max('at').as('latest')).executeTakeFirst();
  const latest = Number(row?.latest ?? 0);
  if (latest - now <= TOLERANCE_MS) return undefined;
  return `the clock reads ${minute(now)}, before the latest event the database recorded (${minute(latest)}): set the system clock (NTP), or times written now will read as older than they are`;
}
