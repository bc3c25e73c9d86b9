import { appendFileSync, cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test } from '@playwright/test';
import { writeCompressedTwins } from '../../scripts/vite-precompress-plugin';
import { startServerProcess, type ServerProcess } from '../support/server-process';
import { E2E_URL, verifiedPerson } from './support/api';
import { checkScreen, controlled, expectInSight, signIn, signInToHome } from './support/ui';

test('without a service worker the broker runs in the page, says so, and calls still carry the token', async ({ browser }) => {
  const person = await verifiedPerson('nosw');
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await signInToHome(page, person);
  // Reloading would not help here, so the notice does not suggest it.
  await expectInSight(page.getByText('This browser does not allow offline support for Home Guard. Your accounts still work in this tab.'));
  await checkScreen(page, 'home-without-service-worker');
  await page.reload();
  await expect(page.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible();
  await context.close();
});

test('a first visit whose service worker installs slowly says nothing, and the worker takes the tab over', async ({ browser }) => {
  const person = await verifiedPerson('slowsw');
  const context = await browser.newContext();
  let workerRequests = 0;
  await context.route('**/*', async (route) => {
    // The worker's first precache fetch takes 5 s: longer than the page waits before brokering itself.
    if (route.request().serviceWorker() && workerRequests++ === 0) await new Promise((resolve) => setTimeout(resolve, 5_000));
    await route.continue();
  });
  const page = await context.newPage();
  const brokeredByPage: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/v1/auth/profile') && request.headers().authorization) brokeredByPage.push(request.url());
  });
  await page.goto('/auth/login');
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await controlled(page);
  await signIn(page, person);
  await expect(page.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible();
  expect(brokeredByPage.length, 'the page brokered its own calls').toBeGreaterThan(0);
  await expect(page.getByText(/offline support/i)).toHaveCount(0);
  await context.close();
});

test('a tab loaded past an installed service worker says a reload brings offline support back', async ({ browser }) => {
  const person = await verifiedPerson('bypass');
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInToHome(page, person);
  await controlled(page);
  // What a hard reload (Shift+Reload) does: the page loads from the network, past the worker.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setBypassServiceWorker', { bypass: true });
  await page.reload();
  await expect(page.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible();
  await expectInSight(page.getByText('Offline support is not active in this tab (reload to enable it). Your accounts still work here.'));
  await context.close();
});

test("the site's data cleared while a tab is open: its calls say to reload, and the reload asks to sign in", async ({ browser }) => {
  const person = await verifiedPerson('cleared');
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInToHome(page, person);
  await controlled(page);
  const bare: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/') && !request.headers().authorization) bare.push(request.url());
  });
  // What "Delete site data" does: the vault, the caches and the worker are gone.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Storage.clearDataForOrigin', { origin: new URL(E2E_URL).origin, storageTypes: 'all' });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
  await page.getByRole('link', { name: 'Personal Info' }).first().click();
  // It said "Authentication required" as if the session had ended, the page still signed in.
  await expect(page.getByText("This page lost touch with Home Guard's background worker. Reload the page.").first()).toBeVisible();
  expect(bare).toEqual([]);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await context.close();
});

test('over plain HTTP at a LAN name the app says it needs a secure connection, instead of failing on Web Crypto', async ({ launchOptions }) => {
  // hg.lan is this server under another name: not localhost, so not a secure context.
  const browser = await chromium.launch({ ...launchOptions, args: [...(launchOptions.args ?? []), '--host-resolver-rules=MAP hg.lan 127.0.0.1'] });
  const page = await browser.newPage();
  await page.goto(`http://hg.lan:${new URL(E2E_URL).port}/auth/login`);
  await expect(page.getByRole('heading', { name: 'Home Guard needs a secure connection' })).toBeVisible();
  await expect(page.getByText(`This page was opened over plain HTTP, at hg.lan:${new URL(E2E_URL).port}.`)).toBeVisible();
  await expect(page.getByText('Home Guard cannot start')).toHaveCount(0);
  await checkScreen(page, 'insecure-connection');
  await browser.close();
});

test('over plain HTTP, a server whose PUBLIC_URL is https links to the same page there, a service\'s request included', async ({ launchOptions }) => {
  const server = await startServerProcess({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'hg-e2e-insecure-')), STATIC_DIR: 'dist', PUBLIC_URL: 'https://id.home.lan' });
  const browser = await chromium.launch({ ...launchOptions, args: [...(launchOptions.args ?? []), '--host-resolver-rules=MAP hg.lan 127.0.0.1'] });
  try {
    const page = await browser.newPage();
    const request = '/auth?client_id=grafana&response_type=code&scope=openid';
    await page.goto(`http://hg.lan:${new URL(server.url).port}${request}`);
    await expect(page.getByRole('heading', { name: 'Home Guard needs a secure connection' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'https://id.home.lan' })).toHaveAttribute('href', `https://id.home.lan${request}`);
    await checkScreen(page, 'insecure-connection-secure-address');
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('when the app cannot open its storage it says so, and Try again starts it once the storage opens', async ({ browser }) => {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  // The accounts' storage as a newer version of the app left it (a rollback): this version cannot open it.
  await page.goto('/manifest.webmanifest');
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const opening = indexedDB.open('guard-local', 99);
        opening.onsuccess = () => resolve(opening.result.close());
        opening.onerror = () => reject(opening.error);
      }),
  );
  await page.goto('/auth/login');
  await expect(page.getByRole('heading', { name: 'Home Guard cannot start' })).toBeVisible();
  await expect(page.getByText('No database connection')).toBeVisible();
  await checkScreen(page, 'cannot-start');

  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const deleting = indexedDB.deleteDatabase('guard-local');
        deleting.onsuccess = () => resolve();
        deleting.onerror = () => reject(deleting.error);
      }),
  );
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Home Guard cannot start' })).toHaveCount(0);
  await context.close();
});

test.describe('a new deployed version', () => {
  let server: ServerProcess;
  let webRoot: string;
  test.beforeAll(async () => {
    // A copy of the build, so this test can deploy a "new version" without touching the others.
    webRoot = path.join(mkdtempSync(path.join(os.tmpdir(), 'hg-web-')), 'dist');
    cpSync('dist', webRoot, { recursive: true });
    server = await startServerProcess({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'hg-e2e-update-')), STATIC_DIR: webRoot });
  });
  test.afterAll(async () => {
    await server.stop();
  });

  test('shows a reload prompt in every tab, and reloading activates it', async ({ page, context }) => {
    await page.goto(server.url);
    await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    const firstWorker = await page.evaluate(() => navigator.serviceWorker.controller!.scriptURL);
    const otherTab = await context.newPage();
    await otherTab.goto(server.url);
    await expect(otherTab.getByRole('heading', { name: 'Sign In' })).toBeVisible();
    await otherTab.evaluate(() => Object.assign(window, { oldCode: true }));
    const thirdTab = await context.newPage();
    await thirdTab.goto(server.url);
    await expect(thirdTab.getByRole('heading', { name: 'Sign In' })).toBeVisible();

    // A release as the build leaves it: the worker changed, and its compressed twins with it.
    const worker = path.join(webRoot, 'sw.js');
    appendFileSync(worker, '\n// a new release\n');
    writeCompressedTwins(worker);
    await page.bringToFront();
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
    const prompt = page.getByRole('alert').filter({ hasText: 'A new version of Home Guard is available.' });
    await expect(prompt).toBeVisible();
    await prompt.getByRole('button', { name: 'Reload to update' }).click();
    await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
    await expect(prompt).toBeHidden();
    const state = await page.evaluate(async () => {
      const registration = (await navigator.serviceWorker.getRegistration())!;
      return { waiting: registration.waiting !== null, controlled: navigator.serviceWorker.controller !== null };
    });
    expect(state).toEqual({ waiting: false, controlled: true });
    expect(firstWorker).toMatch(/\/sw\.js$/);

    // The other tab's prompt, clicked after the first applied the update, reloads that tab too.
    await otherTab.bringToFront();
    const otherPrompt = otherTab.getByRole('alert').filter({ hasText: 'A new version of Home Guard is available.' });
    await otherPrompt.getByRole('button', { name: 'Reload to update' }).click();
    await expect(otherPrompt).toBeHidden();
    await expect(otherTab.getByRole('heading', { name: 'Sign In' })).toBeVisible();
    expect(await otherTab.evaluate(() => 'oldCode' in window)).toBe(false);

    // Later puts the prompt away, in the tab it was clicked in.
    await thirdTab.bringToFront();
    const thirdPrompt = thirdTab.getByRole('alert').filter({ hasText: 'A new version of Home Guard is available.' });
    await expect(thirdPrompt).toBeVisible();
    await checkScreen(thirdTab, 'update-prompt');
    await thirdPrompt.getByRole('button', { name: 'Later' }).click();
    await expect(thirdPrompt).toBeHidden();
  });
});
