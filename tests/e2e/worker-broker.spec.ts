import { expect, test, type Page } from '@playwright/test';
import { verifiedPerson } from './support/api';
import { controlled, signInToHome } from './support/ui';

/**
 * Sends one Comlink message to the worker's broker, as page script could, on a channel of its own:
 * the worker's answer, or 'no answer' after a second and a half.
 */
const askTheWorker = (page: Page, message: Record<string, unknown>) =>
  page.evaluate(
    (sent) =>
      new Promise<unknown>((resolve) => {
        const { port1, port2 } = new MessageChannel();
        port1.onmessage = (event) => resolve(event.data);
        navigator.serviceWorker.controller!.postMessage({ type: 'guard-connect' }, [port2]);
        port1.postMessage({ id: 'probe', ...sent });
        setTimeout(() => resolve('no answer'), 1_500);
      }),
    message,
  );

test("page script reaches nothing in the worker but the broker's verbs, with plain data", async ({ page }) => {
  await page.goto('/auth/login');
  await controlled(page);
  const snapshot = await askTheWorker(page, { type: 'APPLY', path: ['snapshot'], argumentList: [] });
  expect(snapshot).toMatchObject({ id: 'probe', type: 'RAW', value: { accounts: [], selectedId: null } });
  // Comlink follows any path: these reached the worker's Object.prototype and Function constructor.
  const refused: Array<Record<string, unknown>> = [
    { type: 'GET', path: ['constructor', 'name'] },
    { type: 'SET', path: ['init', '__proto__', '__proto__', 'polluted'], value: { type: 'RAW', value: 1 } },
    { type: 'APPLY', path: ['init', 'constructor'], argumentList: [{ type: 'RAW', value: 'return 1' }] },
    { type: 'APPLY', path: ['toString'], argumentList: [] },
    // A proxy back into the page as an argument: the broker would read it as data.
    { type: 'APPLY', path: ['signIn'], argumentList: [{ type: 'HANDLER', name: 'proxy', value: null }] },
  ];
  for (const message of refused) expect(await askTheWorker(page, message), JSON.stringify(message.path)).toBe('no answer');
});

test('a call after the browser stopped its idle worker is answered at once, by the worker woken for it', async ({ page, context }) => {
  const person = await verifiedPerson('idle');
  await signInToHome(page, person);
  await controlled(page);
  // What Chrome does to a worker idle for 30 s (Playwright's own connection keeps it from doing so).
  const cdp = await context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  // The channel of a stopped worker answered nothing: the call waited out 8 s and a 2 s ping first.
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible({ timeout: 5_000 });
});
