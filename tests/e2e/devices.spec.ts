import { expect, test } from '@playwright/test';
import { verifiedPerson } from './support/api';
import { screenshots, signInToHome } from './support/ui';

const FIREFOX_ON_ANDROID = 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0';

test('a person sees where they are signed in on Personal Info and signs out a phone they do not recognise', async ({ page, browser }) => {
  const person = await verifiedPerson('devices');
  const phoneContext = await browser.newContext({ userAgent: FIREFOX_ON_ANDROID });
  const phone = await phoneContext.newPage();
  await signInToHome(phone, person);
  await signInToHome(page, person);

  await page.getByRole('link', { name: 'Personal Info' }).first().click();
  const card = page.locator('.mantine-Paper-root', { has: page.getByRole('heading', { name: 'Devices' }) });
  await expect(card.getByText('This device')).toBeVisible();
  await expect(card.getByText('Active now')).toBeVisible();
  const stranger = card.getByRole('button', { name: 'Sign out Android 14, Mobile Firefox 133.0' });
  await expect(stranger).toBeVisible();
  await expect(card.getByText(/^127\.0\.0\.1 · Last active /).first()).toBeVisible();
  await screenshots(page, 'personal-info-devices');

  await stranger.click();
  await expect(card.getByRole('status')).toHaveText('Android 14, Mobile Firefox 133.0 is signed out.');
  await expect(stranger).toBeHidden();
  await expect(card.getByText('This device')).toBeVisible();

  await phone.reload();
  await expect(phone.getByRole('status')).toHaveText(`You were signed out of ${person.email}. Sign in again to go on.`);
  await phoneContext.close();
});
