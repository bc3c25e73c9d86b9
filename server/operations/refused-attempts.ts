import type { FastifyBaseLogger } from 'fastify';
import type { SignInRefusal } from '../../contract/audit';

/** The message of every refused-credential line: what a log watcher (fail2ban) matches. */
export const REFUSED_ATTEMPT_MESSAGE = 'authentication refused';

export type RefusedAttempt =
  | { attempt: 'sign-in'; reason: SignInRefusal | 'unknown-account' | 'throttled'; ip: string | undefined; userId?: string }
  | { attempt: 'client-authentication'; reason: 'wrong-credentials' | 'throttled'; ip: string | undefined; detail?: string }
  // The current password asked for before a password or two-step change.
  | { attempt: 'password-check'; reason: 'wrong-password' | 'throttled'; ip: string | undefined; userId: string }
  // Registering, refused after too many emails that were already registered (someone listing accounts).
  | { attempt: 'registration'; reason: 'throttled'; ip: string | undefined };

/**
 * One warn line per refused credential, with the address it came from, so a log watcher can ban
 * an address that keeps guessing (README, "Banning addresses that guess"). Never the password,
 * the code or the email tried: people type passwords into the wrong field.
 */
export function logRefusedAttempt(log: FastifyBaseLogger, refused: RefusedAttempt): void {
  log.warn({ ...refused, ip: refused.ip ?? 'unknown' }, REFUSED_ATTEMPT_MESSAGE);
}
