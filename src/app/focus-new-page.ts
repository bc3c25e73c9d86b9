/**
 * A new page's heading takes the focus when the old page took the focus with it (to <body>): a
 * screen reader then says where the person is, and Tab goes on from the page, not from the top of
 * the document (WCAG 2.4.3). A page that focuses a field itself (autofocus) keeps it, and the first
 * page is left as the browser opens it. Found by watching the document, as pages show their
 * heading once loaded (lazily loaded code, data).
 */
export function focusNewPageHeadings(): () => void {
  let shown: { element: Element; text: string } | undefined;
  const observer = new MutationObserver(() => {
    const heading = document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('h1');
    const text = heading?.textContent ?? '';
    if (!heading || (heading === shown?.element && text === shown.text)) return;
    const first = shown === undefined;
    shown = { element: heading, text };
    if (first || (document.activeElement !== null && document.activeElement !== document.body)) return;
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    heading.focus({ preventScroll: true });
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  return () => observer.disconnect();
}
