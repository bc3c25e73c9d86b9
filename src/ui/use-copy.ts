import { useEffect, useRef, useState } from 'react';

export type CopyOutcome = 'copied' | 'failed' | null;

/** What a copy shows once it is refused: the browser may deny the clipboard, or the page may not have focus. */
export const COPY_FAILED = 'Could not copy. Select the text and copy it yourself.';

/**
 * Copies text and says how it went, for a moment. Mantine's CopyButton only ever says "copied", so a
 * write the browser refused looked like a click that did nothing.
 */
export function useCopy(value: string): { outcome: CopyOutcome; copy: () => void } {
  const [outcome, setOutcome] = useState<CopyOutcome>(null);
  const timer = useRef<number>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const show = (next: CopyOutcome) => {
    window.clearTimeout(timer.current);
    setOutcome(next);
    timer.current = window.setTimeout(() => setOutcome(null), next === 'failed' ? 6_000 : 1_500);
  };
  const copy = () => {
    // Without a secure context there is no clipboard at all: that is a failure too, said the same way.
    const write = navigator.clipboard?.writeText(value) ?? Promise.reject(new Error('No clipboard'));
    write.then(
      () => show('copied'),
      () => show('failed'),
    );
  };
  return { outcome, copy };
}
