import { useRef } from 'react';

/**
 * After a confirmed action, the dialog gives focus back to the button that opened it, which is
 * busy (disabled) by then, or gone once the action is done: focus would be lost. This gives it to
 * the section instead: its first usable button, else its heading (which needs tabIndex -1).
 */
export function useSectionFocus() {
  const section = useRef<HTMLDivElement>(null);
  const refocus = () =>
    requestAnimationFrame(() => {
      const within = section.current;
      (within?.querySelector<HTMLElement>('button:not([disabled])') ?? within?.querySelector<HTMLElement>('h2'))?.focus();
    });
  return { section, refocus };
}
