import { Alert } from '@mantine/core';

export type Outcome = { kind: 'success' | 'error' | 'info'; message: string } | null;

const COLOURS = { success: 'green', error: 'red', info: 'blue' } as const;

/** The result of a form or an action: green, red or blue, announced to screen readers. */
export function OutcomeAlert({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  return (
    <Alert color={COLOURS[outcome.kind]} variant="light" role={outcome.kind === 'error' ? 'alert' : 'status'}>
      {outcome.message}
    </Alert>
  );
}
