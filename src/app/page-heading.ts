/**
 * Follows the page's heading, which pages show once loaded (lazily loaded code, data): one watch
 * of the document for both things it tells.
 * - The tab's title names the page: "Personal Info · Home Guard" (WCAG 2.4.2). One title for every
 *   page said nothing to someone switching tabs or to a screen reader after a page change.
 * - A new page's heading takes the focus when the old page took the focus with it (to <body>): a
 *   screen reader then says where the person is, and Tab goes on from the page, not from the top
 *   of the document (WCAG 2.4.3). A page that focuses a field itself (autofocus) keeps it, and the
 *   first page is left as the browser opens it.
 */
export function followPageHeading(): () => void {
  let shown: { element: Element; text: string } | undefined;
  const update = () => {
    const text = document.querySelector('h1')?.textContent?.trim();
    const title = text && text !== 'Home Guard' ? `${text} · Home Guard` : 'Home Guard';
    if (document.title !== title) document.title = title;

    const heading = document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('h1');
    const headingText = heading?.textContent ?? '';
    if (!heading || (heading === shown?.element && headingText === shown.text)) return;
    const first = shown === undefined;
    shown = { element: heading, text: headingText };
    if (first || (document.activeElement !== null && document.activeElement !== document.body)) return;
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    heading.focus({ preventScroll: true });
  };
  const observer = new MutationObserver(update);
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  update();
  return () => observer.disconnect();
}
