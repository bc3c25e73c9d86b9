/**
 * Gives the focus back to a button that lost it by turning busy. Mantine disables a button while
 * it is loading, and Chromium then moves the focus to <body>: a screen reader said nothing more,
 * and Enter or Space did nothing until the person found their place again (WCAG 2.4.3). When the
 * button is enabled again and nothing else has taken the focus meanwhile, it takes it back. A
 * button that stays disabled, or leaves the page, is let go when anything else gets the focus.
 */
export function keepFocusOnBusyButtons(): () => void {
  let waiting: HTMLButtonElement | undefined;
  const onFocusOut = (event: FocusEvent) => {
    if (event.relatedTarget === null && event.target instanceof HTMLButtonElement && event.target.disabled) waiting = event.target;
  };
  const onFocusIn = () => {
    waiting = undefined;
  };
  const observer = new MutationObserver(() => {
    if (!waiting || waiting.disabled) return;
    const nothingFocused = document.activeElement === null || document.activeElement === document.body;
    // Without scrolling: the answer the action brought may have been scrolled into sight meanwhile.
    if (waiting.isConnected && nothingFocused) waiting.focus({ preventScroll: true });
    waiting = undefined;
  });
  document.addEventListener('focusout', onFocusOut, true);
  document.addEventListener('focusin', onFocusIn, true);
  observer.observe(document.body, { attributes: true, attributeFilter: ['disabled'], subtree: true });
  return () => {
    observer.disconnect();
    document.removeEventListener('focusout', onFocusOut, true);
    document.removeEventListener('focusin', onFocusIn, true);
  };
}
