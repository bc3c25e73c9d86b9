import { expect, test, type Locator } from '@playwright/test';
import { verifiedPerson } from './support/api';
import { E2E_ADMIN } from './global-setup';
import { addAccount, checkScreen, expectInSight, signBackIn, signIn, signInToHome, statusRegionsNow } from './support/ui';

test('two accounts on one device: pick, switch (seen by another tab without reload), sign out one', async ({ context }) => {
  const ada = await verifiedPerson('ada');
  const bob = await verifiedPerson('bob');
  const tab = await context.newPage();
  await tab.goto('/auth/login');
  await signIn(tab, ada);
  await expect(tab.getByRole('heading', { name: `Welcome, ${ada.name}` })).toBeVisible();

  // Add a second account: leave the active one, then "Add new account".
  await addAccount(tab, bob);

  const other = await context.newPage();
  await other.goto('/');
  await expect(other.getByRole('heading', { name: `Welcome, ${bob.name}` })).toBeVisible();

  await tab.bringToFront();
  await tab.getByRole('button', { name: 'Account menu' }).click();
  await tab.getByRole('menuitem', { name: 'Switch account' }).click();
  const saved = tab.getByRole('list', { name: 'Saved accounts' });
  await expect(saved.getByText(ada.email)).toBeVisible();
  await expect(saved.getByText(bob.email)).toBeVisible();
  await saved.getByRole('button', { name: new RegExp(ada.name) }).click();
  await expect(tab.getByRole('heading', { name: `Welcome, ${ada.name}` })).toBeVisible();
  // The other tab follows without a reload.
  await expect(other.getByRole('heading', { name: `Welcome, ${ada.name}` })).toBeVisible();

  await tab.getByRole('button', { name: 'Sign Out' }).click();
  await expect(tab.getByRole('heading', { name: 'Select Account' })).toBeVisible();
  await expect(saved.getByText(bob.email)).toBeVisible();
  await expect(saved.getByText(ada.email)).toBeHidden();
  await expect(other.getByRole('heading', { name: 'Select Account' })).toBeVisible();
});

test('while the profile loads after a reload, a spinner says so; then the page shows', async ({ context, page }) => {
  const person = await verifiedPerson('slowprofile');
  await page.goto('/auth/login');
  await signIn(page, person);
  await expect(page.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible();
  await context.route('**/api/v1/auth/profile', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await route.continue();
  });
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'Loading your account...' })).toBeVisible();
  await expect(page.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Loading your account...' })).toHaveCount(0);
});

test('signed out, a protected page sends to sign-in and comes back after it', async ({ page }) => {
  const person = await verifiedPerson('guard');
  await page.goto('/personal-info');
  await expect(page).toHaveURL(/\/auth\/login\?from=%2Fpersonal-info$/);
  await signIn(page, person);
  await expect(page).toHaveURL(/\/personal-info$/);
  await expect(page.getByRole('heading', { name: 'Personal Info' })).toBeVisible();
  await expect(page.getByLabel('Full name')).toHaveValue(person.name);
  await expect(page.getByLabel('Username'), 'made from the email').toHaveValue(person.email.split('@')[0]!);

  // With a saved account but none active, the way back goes through the account picker.
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Switch account' }).click();
  await page.goto('/personal-info');
  await expect(page).toHaveURL(/\/auth\/authenticate\?from=%2Fpersonal-info$/);
  await page.getByRole('list', { name: 'Saved accounts' }).getByRole('button', { name: new RegExp(person.name) }).click();
  await expect(page).toHaveURL(/\/personal-info$/);
});

test('a return address off this site is ignored after sign-in', async ({ page }) => {
  const person = await verifiedPerson('redirect');
  await page.goto('/auth/login?from=%2F%2Fevil.example%2Fsteal');
  await signIn(page, person);
  await expect(page.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible();
  expect(new URL(page.url()).host).toBe('127.0.0.1:8181');
  // Signed in, the sign-in page sends one back at once: a tab or line break hides '//' from a plain look.
  for (const hidden of ['%2F%09%2Fevil.example%2F', '%2F%0A%2Fevil.example', '%2F%09%2F%5B']) {
    await page.goto(`/auth/login?from=${hidden}`);
    await expect(page.getByRole('heading', { name: `Welcome, ${person.name}` }), hidden).toBeVisible();
    expect(page.url()).toBe('http://127.0.0.1:8181/');
  }
});

test('a regular user is kept out of the admin area, and unknown paths show 404', async ({ page }) => {
  const person = await verifiedPerson('regular');
  await signInToHome(page, person);
  await expect(page.getByRole('link', { name: 'Users' })).toHaveCount(0);
  await page.goto('/admin/users');
  await expect(page).toHaveURL(/\/not-allowed$/);
  await expect(page.getByText('this resource is not allowed')).toBeVisible();
  await checkScreen(page, 'not-allowed');
  await page.goto('/nope');
  await expect(page.getByRole('heading', { name: '404 - Not Found' })).toBeVisible();
  await checkScreen(page, 'not-found');
});

test('an administrator sees the Admin group, highlighted by path prefix', async ({ page }) => {
  await page.goto('/auth/login');
  await signIn(page, { email: 'admin@e2e.test', password: 'Admin-secret1' });
  await expect(page.getByRole('heading', { name: 'Welcome, Ada Admin' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('data-active', 'true');
  await nav.getByRole('link', { name: 'Users' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(nav.getByRole('link', { name: 'Users' })).toHaveAttribute('data-active', 'true');
  await expect(nav.getByRole('link', { name: 'Home' })).not.toHaveAttribute('data-active', 'true');
  // By prefix: a page under Users keeps Users marked.
  await page.getByRole('link', { name: 'Add User' }).click();
  await expect(page).toHaveURL(/\/admin\/users\/create$/);
  await expect(nav.getByRole('link', { name: 'Users' })).toHaveAttribute('data-active', 'true');
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin\/api-services$/);
  await expect(nav.getByRole('link', { name: 'API Services' })).toHaveAttribute('data-active', 'true');

  // Service Sessions: its own heading and breadcrumb, and a search that finds nothing says so.
  await nav.getByRole('link', { name: 'Service Sessions' }).click();
  await expect(page).toHaveURL(/\/admin\/service-sessions/);
  await expect(nav.getByRole('link', { name: 'Service Sessions' })).toHaveAttribute('data-active', 'true');
  await expect(page.getByRole('heading', { name: 'Service Sessions', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toHaveText(/^Admin\s*›\s*Service Sessions$/);
  await page.getByLabel('Search').fill('no-such-person-anywhere');
  await expect(page.getByText('No sessions found.')).toBeVisible();
});

test('on a narrow screen a tab strip stands in for the sidebar and keeps the current page\'s tab in sight', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/auth/login?from=%2Fadmin%2Fuser-sessions');
  await signIn(page, E2E_ADMIN);
  await expect(page.getByRole('heading', { name: 'User Sessions' })).toBeVisible();
  const strip = page.getByRole('tablist');
  await expect(strip.getByRole('tab', { selected: true })).toHaveText('User Sessions');
  await expectInSight(strip.getByRole('tab', { name: 'User Sessions' }));
  // The sidebar is off screen, and out of reach of the keyboard and screen readers; the strip is
  // the main navigation, and a tab leads to its page as the sidebar's link would.
  const sidebar = page.locator('.mantine-AppShell-navbar');
  await expect(sidebar).toHaveAttribute('inert', '');
  await expect(page.getByRole('navigation', { name: 'Main navigation' }).filter({ has: strip })).toBeVisible();
  // From the top of the page (the new page's heading took the focus when it was shown).
  await expect(page.getByRole('heading', { name: 'User Sessions' })).toBeFocused();
  await page.getByRole('button', { name: 'Account menu' }).focus();
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    await expect(page.locator(':focus')).toBeInViewport();
  }
  await strip.getByRole('tab', { name: 'Personal Info' }).click();
  await expect(page).toHaveURL(/\/personal-info$/);
  await expect(page.getByRole('heading', { name: 'Personal Info' })).toBeVisible();
  await expect(strip.getByRole('tab', { selected: true })).toHaveText('Personal Info');
  // Wide, the sidebar takes over from the strip.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByRole('tablist')).toHaveCount(0);
  await expect(sidebar).toBeInViewport();
  await expect(sidebar.getByRole('link', { name: 'Personal Info' })).toHaveAttribute('data-active', 'true');
});

test('a person changes their password from Personal Info: this device stays signed in, another is signed out', async ({ page, browser }) => {
  const person = await verifiedPerson('change');
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await signInToHome(other, person);
  await signInToHome(page, person);

  await page.getByRole('link', { name: 'Personal Info' }).first().click();
  await page.getByRole('button', { name: 'Change Password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change your password' });
  await dialog.getByRole('button', { name: 'Change Password' }).click();
  await expect(dialog.getByText('Current password is required')).toBeVisible();
  await dialog.getByLabel('Current Password').fill('Not-my-password1');
  await dialog.getByLabel('New Password').fill('Second-life77');
  await dialog.getByLabel('Repeat Password').fill('Second-life77');
  await dialog.getByRole('button', { name: 'Change Password' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('The current password is wrong');
  // Cancelled, the refusal goes with the dialog: not left on the card, to be read out again.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByText('The current password is wrong')).toHaveCount(0);
  await page.getByRole('button', { name: 'Change Password' }).click();
  await dialog.getByLabel('Current Password').fill(person.password);
  await dialog.getByLabel('New Password').fill('Second-life77');
  await dialog.getByLabel('Repeat Password').fill('Second-life77');
  await checkScreen(page, 'change-password');
  const card = page.locator('.mantine-Paper-root', { has: page.getByRole('heading', { name: 'Password' }) });
  // The card's message is put in a region there all along, the dialog open, so it is read out.
  const said = await statusRegionsNow(card);
  await dialog.getByRole('button', { name: 'Change Password' }).click();
  await expect(dialog).toBeHidden();
  await expect(said).toHaveText('Your password is changed. Your other devices and your services were signed out.');
  await expect(said.getByRole('alert'), 'said politely, not as an alert').toHaveCount(0);
  // As wide as the card's text, as every message is (it shrank to its own text here).
  const widthOf = async (locator: Locator) => (await locator.boundingBox())!.width;
  expect(await widthOf(said)).toBeCloseTo(await widthOf(card.getByText(/^A new password signs you out/)), 0);
  await checkScreen(page, 'personal-info-password-changed');

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Personal Info' })).toBeVisible();
  await signBackIn(other, person, 'Second-life77');
  await otherContext.close();
});
