// Real Chromium (Debian's /usr/bin/chromium) for the PWA benchmark: launching, signing in
// through the UI, recording the JavaScript a page loads and timing the Sign In form.
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page, type Response } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

export type Credentials = { email: string; password: string };

export const launchBrowser = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });

/** A persistent profile with a DevTools port, so Lighthouse can drive the same browser (and storage). */
export const launchWithDebugPort = (userDataDir: string, port: number, viewport: { width: number; height: number }): Promise<BrowserContext> =>
  chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, viewport, args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`] });

/** Signs in through the Sign In form (the page must be on it) and waits until the app leaves it. */
export async function signInThroughUi(page: Page, person: Credentials): Promise<void> {
  await page.getByRole('heading', { name: 'Sign In' }).waitFor({ timeout: 30_000 });
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/auth/login'), { timeout: 30_000 });
}

/** Opens /auth/login in `page` and signs in; resolves once the app shows the signed-in Home. */
export async function signIn(page: Page, baseUrl: string, person: Credentials): Promise<void> {
  await page.goto(`${baseUrl}/auth/login`);
  await signInThroughUi(page, person);
  await page.getByText('Welcome,').first().waitFor({ timeout: 30_000 });
}

/** Waits until a service worker controls the page (its precache is then installed). */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.waitForFunction(() => !!navigator.serviceWorker?.controller, undefined, { timeout: 30_000 });
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
}

export type JsFile = {
  url: string;
  /** Decoded size of the script. */
  bytes: number;
  /** Body bytes that crossed the wire (0 when the service worker or the HTTP cache answered). */
  wireBytes: number;
  /** The Content-Encoding the server sent, or null when it sent the bytes as they are. */
  encoding: string | null;
  /** gzip -6 size of the script: what it would cost on the wire if the server compressed it. */
  gzipBytes: number;
  fromServiceWorker: boolean;
};

export type JsLoad = { files: JsFile[]; bytes: number; wireBytes: number; gzipBytes: number; gzipBytesFromNetwork: number };

/** Records every script response the page gets until `stop()` is called. */
export function recordScripts(page: Page): { stop(): Promise<JsLoad> } {
  const pending: Array<Promise<JsFile | null>> = [];
  const onResponse = (response: Response) => {
    const request = response.request();
    const url = response.url();
    if (request.resourceType() !== 'script' && !/\.m?js(\?|$)/.test(new URL(url).pathname)) return;
    pending.push(
      (async () => {
        try {
          const body = await response.body();
          const sizes = await request.sizes().catch(() => ({ responseBodySize: 0 }));
          const encoding = (await response.allHeaders())['content-encoding'] ?? null;
          const fromServiceWorker = response.fromServiceWorker();
          return { url, bytes: body.length, wireBytes: fromServiceWorker ? 0 : sizes.responseBodySize, encoding, gzipBytes: gzipSync(body, { level: 6 }).length, fromServiceWorker };
        } catch {
          return null; // a redirect or a response without a body
        }
      })(),
    );
  };
  page.on('response', onResponse);
  return {
    async stop() {
      page.off('response', onResponse);
      const files = (await Promise.all(pending)).filter((f): f is JsFile => f !== null);
      const sum = (pick: (f: JsFile) => number, list = files) => list.reduce((total, f) => total + pick(f), 0);
      return { files, bytes: sum((f) => f.bytes), wireBytes: sum((f) => f.wireBytes), gzipBytes: sum((f) => f.gzipBytes), gzipBytesFromNetwork: sum((f) => f.gzipBytes, files.filter((f) => !f.fromServiceWorker)) };
    },
  };
}

/**
 * Navigates to /auth/login and returns the time from navigation start (the page's timeOrigin) to
 * the moment the Sign In form can be used: the email field visible and enabled, and the Log In
 * button visible and enabled. Read inside the page on every animation frame.
 */
export async function timeToSignInForm(page: Page, baseUrl: string): Promise<number> {
  await page.goto(`${baseUrl}/auth/login`, { waitUntil: 'commit' });
  // No named functions inside: tsx's name-keeping helper (`__name`) does not exist in the page,
  // and the app's CSP forbids evaluating a string.
  const handle = await page.waitForFunction(
    () => {
      const email = document.querySelector<HTMLInputElement>('input[type="email"]');
      const button = [...document.querySelectorAll<HTMLButtonElement>('button[type="submit"]')].find((b) => b.textContent?.includes('Log In'));
      if (!email || !button || email.disabled || button.disabled) return false;
      if ([email, button].some((el) => el.offsetParent === null || el.getBoundingClientRect().width === 0)) return false;
      return performance.now();
    },
    undefined,
    { polling: 'raf', timeout: 30_000 },
  );
  return Math.round((await handle.jsonValue()) as number);
}

/** Script URLs in the service worker's precache (Cache Storage) of this page's origin. */
export const precachedScripts = (page: Page): Promise<string[]> =>
  page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) if (/\.m?js(\?|$)/.test(new URL(request.url).pathname)) urls.push(request.url);
    }
    return urls;
  });

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
};
