import { expect, test } from '@playwright/test';
import { E2E_ADMIN } from './global-setup';
import { login } from './support/api';
import { checkScreen, personOnTheirDevice, shownStatus, signIn } from './support/ui';

test('an administrator disables an account: its owner is signed out and kept out until it is enabled again', async ({ page, browser }) => {
  const { person, id, device, close } = await personOnTheirDevice(browser, 'leaver');

  await page.goto(`/auth/login?from=${encodeURIComponent(`/admin/users/edit/${id}`)}`);
  await signIn(page, E2E_ADMIN);
  const section = page.locator('div', { has: page.getByRole('heading', { name: 'Account Access' }) }).last();
  await expect(section.getByText(`Enabled: ${person.name} can sign in.`)).toBeVisible();
  await section.getByRole('button', { name: 'Disable Account' }).click();
  const dialog = page.getByRole('dialog', { name: `Disable ${person.name}?` });
  await dialog.getByRole('button', { name: 'Disable' }).click();
  await expect(shownStatus(page)).toHaveText(`${person.name} was signed out of every device and service.`);
  await expect(section.getByText(`Disabled since`)).toBeVisible();
  await expect(section.locator(':focus')).toHaveCount(1); // not lost with the busy button: its button or its heading
  await checkScreen(page, 'admin-user-disabled');
  await page.goto(`/admin/users?search=${encodeURIComponent(person.email)}`);
  await expect(page.getByRole('row', { name: new RegExp(person.name) }).getByText('Disabled', { exact: true })).toBeVisible();
  await checkScreen(page, 'admin-users-disabled-badge');

  await device.reload();
  await expect(shownStatus(device)).toHaveText(`You were signed out of ${person.email}. Sign in again to go on.`);
  await device.getByLabel('Password', { exact: true }).fill(person.password);
  await device.getByRole('button', { name: 'Log In' }).click();
  await expect(device.getByText('This account is disabled; ask an administrator to enable it')).toBeVisible();
  await checkScreen(device, 'sign-in-account-disabled');

  await page.goto(`/admin/users/edit/${id}`);
  await page.getByRole('button', { name: 'Enable Account' }).click();
  await expect(shownStatus(page)).toHaveText(`${person.name} can sign in again.`);
  await device.getByRole('button', { name: 'Log In' }).click();
  await expect(device.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible();
  await close();
});

test('an administrator signs someone out everywhere (a phone lost): their device asks them to sign in, and they may at once', async ({ page, browser }) => {
  const { person, id, device, close } = await personOnTheirDevice(browser, 'lostphone');

  await page.goto(`/auth/login?from=${encodeURIComponent(`/admin/users/edit/${id}`)}`);
  await signIn(page, E2E_ADMIN);
  const section = page.locator('div', { has: page.getByRole('heading', { name: 'Account Access' }) }).last();
  await section.getByRole('button', { name: 'Sign Out Everywhere' }).click();
  const dialog = page.getByRole('dialog', { name: `Sign ${person.name} out everywhere?` });
  await expect(dialog).toContainText('To keep them out, disable the account');
  await checkScreen(page, 'admin-user-sign-out-everywhere');
  await dialog.getByRole('button', { name: 'Sign Out' }).click();
  // Their phone, and the sign-ins their verification made through the API.
  await expect(shownStatus(page)).toHaveText(new RegExp(`^${person.name} was signed out of \\d+ devices and every service\\.$`));
  await expect(section.getByText(`Enabled: ${person.name} can sign in.`)).toBeVisible();

  await device.reload();
  await expect(shownStatus(device)).toHaveText(`You were signed out of ${person.email}. Sign in again to go on.`);
  await device.getByLabel('Password', { exact: true }).fill(person.password);
  await device.getByRole('button', { name: 'Log In' }).click();
  await expect(device.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible();
  await close();
});

test('an administrator cannot disable their own account', async ({ page }) => {
  const { id } = await login(E2E_ADMIN);
  await page.goto(`/auth/login?from=${encodeURIComponent(`/admin/users/edit/${id}`)}`);
  await signIn(page, E2E_ADMIN);
  await expect(page.getByText('Enabled. This is your own account: another administrator can disable it.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Disable Account' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Sign Out Everywhere' }), 'Personal Info signs out the other devices').toHaveCount(0);
});
