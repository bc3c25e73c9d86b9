import { Alert } from '@mantine/core';
import { useEffect, useRef, useState, type CSSProperties } from 'react';

export type Outcome = { kind: 'success' | 'error' | 'info'; message: string } | null;

const COLOURS = { success: 'green', error: 'red', info: 'blue' } as const;

// The card's width wherever it is, also in a stack that keeps its buttons to their own width.
const STRETCHED: CSSProperties = { alignSelf: 'stretch' };
// Empty, the region takes no room: in a stack it would add a gap of its own.
const OUT_OF_FLOW: CSSProperties = { position: 'absolute' };
// How long a message there as the page opens is kept from screen readers (see below).
const ANNOUNCED_AFTER_MS = 250;

/**
 * The result of a form or an action: green, red or blue, announced to screen readers. A success
 * or a note is put into a status region that is always there (WCAG technique ARIA22): a region
 * that appears with its message in it is not read out by every screen reader. A refusal is an
 * alert, which is read out as it appears. A message there as the page opens ("You were signed
 * out…") is kept from screen readers for a moment, then given to them, so that it too comes into
 * a region that was there before it. Brought into sight when it appears: above a long form on a
 * phone it was off the screen, and pressing Update seemed to do nothing.
 */
export function OutcomeAlert({ outcome }: { outcome: Outcome }) {
  const alert = useRef<HTMLDivElement>(null);
  // Once per message shown, not per render: a page typed in re-renders, and must not jump.
  const shown = outcome && `${outcome.kind}:${outcome.message}`;
  useEffect(() => {
    if (shown) alert.current?.scrollIntoView({ block: 'nearest' });
  }, [shown]);
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setOpened(true), ANNOUNCED_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
  const refused = outcome?.kind === 'error';
  // Mantine makes every Alert an alert unless told otherwise: a success is no alert, its region says it.
  const shownAlert = outcome && (
    <Alert ref={alert} color={COLOURS[outcome.kind]} variant="light" role={refused ? 'alert' : 'none'} aria-hidden={!opened || undefined} style={STRETCHED}>
      {outcome.message}
    </Alert>
  );
  return (
    <>
      <div role="status" style={outcome && !refused ? STRETCHED : OUT_OF_FLOW}>
        {!refused && shownAlert}
      </div>
      {refused && shownAlert}
    </>
  );
}
