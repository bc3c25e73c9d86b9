import { redirect } from '@tanstack/react-router';
import { proxy } from 'valtio';
import type { Session } from '../../session/session-store';
import { STEP_PATHS, stepOf, type VerifyStep } from './verify-steps';

/** Where to go once verification is done (the page first asked for). */
export const verifyFlow = proxy<{ from: string | undefined }>({ from: undefined });

export function resetVerifyFlow(): void {
  verifyFlow.from = undefined;
}

/** Each step's page shows only while the profile is at that step; otherwise go where it is. */
export async function requireStep(session: Session, expected: VerifyStep | 'any'): Promise<void> {
  await session.ensureAuthenticated();
  const profile = session.state.profile;
  if (!profile) return; // offline or failing: stay, the page says what it can
  const step = stepOf(profile);
  if (step === 'done') {
    const target = verifyFlow.from;
    resetVerifyFlow();
    throw target ? redirect({ href: target }) : redirect({ to: '/' });
  }
  if (expected !== 'any' && step !== expected) throw redirect({ to: STEP_PATHS[step] });
}
