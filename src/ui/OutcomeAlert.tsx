import { Alert } from '@mantine/core';
import { useEffect, useRef } from 'react';

export type Outcome = { kind: 'success' | 'error' | 'info'; message: string } | null;

const COLOURS = { success: 'green', error: 'red', info: 'blue' } as const;

/**
 * The result of a form or an action: green, red or blue, announced to screen readers. Brought
 * into sight when it appears: above a long form on a phone it was off the screen, and pressing
 * Update seemed to do nothing.
 */
export function OutcomeAlert({ outcome }: { outcome: Outcome }) {
  const alert = useRef<HTMLDivElement>(null);
  // Once per message shown, not per render: a page typed in re-renders, and must not jump.
  const shown = outcome && `${outcome.kind}:${outcome.message}`;
  useEffect(() => {
    if (shown) alert.current?.scrollIntoView({ block: 'nearest' });
  }, [shown]);
  if (!outcome) return null;
  // The card's width wherever it is, also in a stack that keeps its buttons to their own width.
  return (
    <Alert ref={alert} color={COLOURS[outcome.kind]} variant="light" role={outcome.kind === 'error' ? 'alert' : 'status'} style={{ alignSelf: 'stretch' }}>
      {outcome.message}
    </Alert>
  );
}
