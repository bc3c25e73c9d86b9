import { redirect } from '@tanstack/react-router';
import { safeReturnPath } from '../../app/guards';
import type { Session } from '../../session/session-store';
import { STEP_PATHS, stepOf, type VerifyStep } from './verify-steps';

// Where to go once verification is done (the page first asked for: often a service's
// authorization request). Kept for this tab in sessionStorage, not in memory: the flow waits for
// a mail, and a reload or a phone discarding the tab meanwhile must not lose the way back.
const ORIGIN_KEY = 'guard-verify-from';

export function rememberVerifyOrigin(from: string): void {
  try {
    sessionStorage.setItem(ORIGIN_KEY, from);
  } catch {
    // storage refused (private mode quota): the flow still ends, at Home
  }
}

function takeVerifyOrigin(): string | undefined {
  try {
    const from = sessionStorage.getItem(ORIGIN_KEY);
    sessionStorage.removeItem(ORIGIN_KEY);
    return safeReturnPath(from);
  } catch {
    return undefined;
  }
}

/** Each step's page shows only while the profile is at that step; otherwise go where it is. */
export async function requireStep(session: Session, expected: VerifyStep | 'any'): Promise<void> {
  await session.ensureAuthenticated();
  const profile = session.state.profile;
  if (!profile) return; // offline or failing: stay, the page says what it can
  const step = stepOf(profile);
  if (step === 'done') {
    const target = takeVerifyOrigin();
    throw target ? redirect({ href: target }) : redirect({ to: '/' });
  }
  if (expected !== 'any' && step !== expected) throw redirect({ to: STEP_PATHS[step] });
}
