import { expect, test } from '@playwright/test';

test('the served app shows its page and is controlled by an active service worker', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle('Home Guard');
  // A signed-out visitor lands on the sign-in page of the app.
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();

  const state = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return { active: registration.active?.state, scriptURL: registration.active?.scriptURL };
  });
  expect(state.active).toBe('activated');
  expect(state.scriptURL).toMatch(/\/sw\.js$/);
  // clients.claim(): the first page is controlled without a reload.
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  const manifest = await page.evaluate(async () => {
    const href = document.querySelector('link[rel="manifest"]')!.getAttribute('href')!;
    return (await fetch(href)).json();
  });
  expect(manifest).toMatchObject({ name: 'Home Guard', display: 'standalone' });
  expect(manifest.icons.map((icon: { sizes: string; purpose: string }) => `${icon.sizes} ${icon.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
});
