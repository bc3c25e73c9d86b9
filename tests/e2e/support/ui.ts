import { mkdirSync } from 'node:fs';
import { expect, type Browser, type Locator, type Page } from '@playwright/test';
import { accessibilityViolations } from './accessibility';
import { login, verifiedPerson, type Person } from './api';

export const SCREENSHOT_DIR = 'test-results/screenshots';

/**
 * The status message shown in `scope`. Status regions stay on the page when empty, so that a
 * message put in one is read out (src/ui/OutcomeAlert.tsx): those are not it.
 */
export const shownStatus = (scope: Page | Locator) => scope.getByRole('status').filter({ hasText: /\S/ });

/**
 * Marks the status regions in `scope` as they are now, and checks that Chromium's accessibility
 * tree, which screen readers read, has each as a live region. Answers the marked one that later
 * shows a message: a message put in a region already there is read out (WCAG technique ARIA22),
 * where one in a region that appears with it is not, by every screen reader.
 */
export async function statusRegionsNow(scope: Locator): Promise<Locator> {
  const regions = scope.getByRole('status');
  await expect(regions).not.toHaveCount(0);
  await regions.evaluateAll((found) => found.forEach((region) => region.setAttribute('data-test-earlier', '')));
  const cdp = await scope.page().context().newCDPSession(scope.page());
  const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
  const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector: '[data-test-earlier]' });
  for (const nodeId of nodeIds) {
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    expect(nodes[0]?.properties?.find((property) => property.name === 'live')?.value.value).toBe('polite');
  }
  await cdp.detach();
  return scope.locator('[role="status"][data-test-earlier]').filter({ hasText: /\S/ });
}

/**
 * From the next page load on, notes each status message as it first comes into the page, and
 * whether it was then kept from screen readers (see src/ui/OutcomeAlert.tsx); read with
 * `statusMessagesAsTheyCame`.
 */
export async function recordStatusMessages(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: Array<{ text: string; hiddenAtFirst: boolean }> = [];
    Object.assign(window, { statusMessagesSeen: seen });
    new MutationObserver(() => {
      for (const region of document.querySelectorAll('[role="status"]')) {
        const text = region.textContent?.trim() ?? '';
        if (text && !seen.some((entry) => entry.text === text)) seen.push({ text, hiddenAtFirst: region.querySelector('[aria-hidden="true"]') !== null });
      }
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

export const statusMessagesAsTheyCame = (page: Page) => page.evaluate(() => (window as unknown as { statusMessagesSeen: Array<{ text: string; hiddenAtFirst: boolean }> }).statusMessagesSeen);

/** Signs in through the Sign In form. */
export async function signIn(page: Page, person: Pick<Person, 'email' | 'password'>): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

/** On a device the server signed out: Sign In says so after a reload, and the new password gets back in. */
export async function signBackIn(page: Page, person: Person, newPassword: string): Promise<void> {
  await page.reload();
  await expect(shownStatus(page)).toHaveText(`You were signed out of ${person.email}. Sign in again to go on.`);
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible();
}

/** Opens the Sign In page, signs in, and waits for Home's welcome. */
export async function signInToHome(page: Page, person: Person): Promise<void> {
  await page.goto('/auth/login');
  await signIn(page, person);
  await expect(page.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible();
}

/** On a device already signed in: Account menu, Switch account, Add new account, then signs `person` in to Home. */
export async function addAccount(page: Page, person: Person): Promise<void> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Switch account' }).click();
  await expect(page.getByRole('heading', { name: 'Select Account' })).toBeVisible();
  await page.getByRole('link', { name: 'Add new account' }).click();
  await signIn(page, person);
  await expect(page.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible();
}

/** A new verified person, signed in to Home on a device of their own (a browser context), for an administrator to act on. */
export async function personOnTheirDevice(browser: Browser, prefix: string) {
  const person = await verifiedPerson(prefix);
  const { id } = await login(person);
  const context = await browser.newContext();
  const device = await context.newPage();
  await signInToHome(device, person);
  return { person, id, device, close: () => context.close() };
}

/**
 * Resizes the page and waits until its layout has settled: the shell's media queries have
 * re-rendered and the AppShell's 200 ms slide of the navbar and main area has finished. A click
 * sent during that slide lands where the target was before it moved, and is lost. At that size
 * already, it only waits for transitions still running.
 */
async function resize(page: Page, size: { width: number; height: number }): Promise<void> {
  const now = page.viewportSize();
  if (now?.width !== size.width || now.height !== size.height) {
    await page.setViewportSize(size);
    await page.waitForFunction((width) => window.innerWidth === width, size.width);
  }
  // Two frames: a transition set off just before (a tooltip closing) has started by then.
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  await page.waitForFunction(() => !document.getAnimations().some((animation) => animation instanceof CSSTransition && animation.playState === 'running'));
}

/**
 * Looks at the current screen at the spec's two sizes, wide and narrow: axe finds nothing wrong
 * with it at either (WCAG 2.2 AA and axe's best practices), and, not under CI, screenshots to open
 * are written. CI's clone is thrown away unread: there the screenshots would cost about 2 s a call,
 * two minutes of the end-to-end step (measured 2026-12-02), and assert nothing.
 */
export async function checkScreen(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  const found: string[] = [];
  // The pointer goes to a corner: a tooltip the last click left fading in or out is no state of
  // the screen, and axe measured its half-transparent text (CI 240).
  await page.mouse.move(0, 0);
  for (const [width, height, label] of [[1280, 800, 'wide'], [390, 844, 'narrow']] as const) {
    await resize(page, { width, height });
    found.push(...(await accessibilityViolations(page)).map((violation) => `${label}: ${violation}`));
    if (process.env.CI) continue;
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}-${label}.png`, fullPage: true });
  }
  if (original) await resize(page, original);
  expect(found, `accessibility of ${name} (${page.url()})`).toEqual([]);
}

/** Every JWT-looking string the page itself can read: storage, cookies and window globals. */
export function pageReadableTokens(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const jwt = /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/g;
    const found: string[] = [];
    const scan = (text: string | null | undefined) => found.push(...(text?.match(jwt) ?? []));
    for (const storage of [localStorage, sessionStorage]) for (let i = 0; i < storage.length; i++) scan(storage.getItem(storage.key(i)!));
    scan(document.cookie);
    for (const key of Object.keys(window)) {
      try {
        const value = (window as unknown as Record<string, unknown>)[key];
        if (typeof value === 'string') scan(value);
        else if (value && typeof value === 'object' && !(value instanceof Node)) scan(JSON.stringify(value));
      } catch {
        // cyclic or unreadable: not a plain token holder
      }
    }
    return found;
  });
}

/**
 * Visible to a person, not only to Playwright: toBeVisible() passes for an element hidden under
 * a fixed header or scrolled out of its strip. The topmost element at its centre must belong to it.
 */
export async function expectInSight(target: Locator): Promise<void> {
  await expect(target).toBeVisible();
  await expect
    .poll(() =>
      target.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const topmost = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return topmost !== null && element.contains(topmost);
      }),
    )
    .toBe(true);
}

/**
 * Waits until a service worker controls the page (what offline use needs). A page left
 * uncontrolled fails with the registration's workers and their states, which tell a worker
 * still installing from one active that never claimed the page (seen once, CI 167).
 */
export const controlled = (page: Page) =>
  expect
    .poll(() =>
      page.evaluate(async () => {
        if (navigator.serviceWorker.controller) return 'controlled';
        const registration = await navigator.serviceWorker.getRegistration();
        if (!registration) return 'uncontrolled, no registration';
        const { installing, waiting, active } = registration;
        return `uncontrolled; installing: ${installing?.state ?? '-'}, waiting: ${waiting?.state ?? '-'}, active: ${active?.state ?? '-'}`;
      }),
    )
    .toBe('controlled');

/** Sets whether the browser itself lets the page write to the clipboard: denied, it refuses, as a browser policy can. */
export async function allowClipboardWrites(page: Page, setting: 'granted' | 'denied'): Promise<void> {
  const { targetInfo } = await (await page.context().newCDPSession(page)).send('Target.getTargetInfo');
  const browser = await page.context().browser()!.newBrowserCDPSession();
  await browser.send('Browser.setPermission', { permission: { name: 'clipboard-write' }, setting, origin: new URL(page.url()).origin, browserContextId: targetInfo.browserContextId });
}

/**
 * Watches every page loaded from now on for a text ever being shown, however briefly (a flash a
 * locator would miss); the answer reads whether the current page has shown it.
 */
export async function watchForText(page: Page, text: string): Promise<() => Promise<boolean>> {
  await page.addInitScript((watched) => {
    new MutationObserver(() => {
      if (document.documentElement.textContent?.includes(watched)) document.documentElement.dataset.sawWatchedText = 'yes';
    }).observe(document, { subtree: true, childList: true, characterData: true });
  }, text);
  return () => page.evaluate(() => document.documentElement.dataset.sawWatchedText === 'yes');
}

/** The text of each line a wrapped text takes, in order (each character placed by its own box). */
export function linesOf(text: Locator): Promise<string[]> {
  return text.evaluate((element) => {
    const lines: string[] = [];
    let top = -Infinity;
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const characters = node.textContent ?? '';
      for (let at = 0; at < characters.length; at++) {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + 1);
        const { top: charTop } = range.getBoundingClientRect();
        if (charTop > top + 2) {
          lines.push(characters[at]!);
          top = charTop;
        } else lines[lines.length - 1] += characters[at]!;
      }
    }
    return lines;
  });
}
