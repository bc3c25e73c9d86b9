import { appendFileSync, cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { writeCompressedTwins } from '../../scripts/vite-precompress-plugin';
import { startServerProcess, type ServerProcess } from '../support/server-process';
import { verifiedPerson } from './support/api';
import { expectInSight, signInToHome } from './support/ui';

test('without a service worker the broker runs in the page, says so, and calls still carry the token', async ({ browser }) => {
  const person = await verifiedPerson('nosw');
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await signInToHome(page, person);
  await expectInSight(page.getByText('Offline support is not active in this tab'));
  await page.reload();
  await expect(page.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible();
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

  test('shows a reload prompt, and reloading activates it', async ({ page }) => {
    await page.goto(server.url);
    await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    const firstWorker = await page.evaluate(() => navigator.serviceWorker.controller!.scriptURL);

    // A release as the build leaves it: the worker changed, and its compressed twins with it.
    const worker = path.join(webRoot, 'sw.js');
    appendFileSync(worker, '\n// a new release\n');
    writeCompressedTwins(worker);
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
  });
});
