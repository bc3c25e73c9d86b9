/**
 * The tab's title names the page, from its heading: "Personal Info · Home Guard" (WCAG 2.4.2).
 * One title for every page said nothing to someone switching tabs or to a screen reader after a
 * page change. Kept up by watching the document, as pages show their heading once loaded.
 */
export function keepTitleFromHeading(): () => void {
  const update = () => {
    const heading = document.querySelector('h1')?.textContent?.trim();
    const title = heading && heading !== 'Home Guard' ? `${heading} · Home Guard` : 'Home Guard';
    if (document.title !== title) document.title = title;
  };
  const observer = new MutationObserver(update);
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  update();
  return () => observer.disconnect();
}
