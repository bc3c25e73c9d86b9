import { expect, test } from '@playwright/test';
import { accessibilityViolations } from './support/accessibility';
import { E2E_ADMIN } from './global-setup';
import { verifiedPerson } from './support/api';
import { signIn } from './support/ui';

// Every checkScreen() in the other specs passes only if axe finds nothing: this shows that it
// does find things, so those passes are not those of a check that runs no rules.
test('the accessibility check names what it finds: low contrast, a nameless button, a page without main', async ({ page }) => {
  await page.setContent(`<!doctype html><html lang="en"><head><title>Check</title></head><body>
    <p style="color:#aaaaaa;background:#ffffff">Pale text</p><button><svg width="10" height="10"></svg></button></body></html>`);
  const found = await accessibilityViolations(page);
  expect(found.map((line) => line.split(':')[0])).toEqual(expect.arrayContaining(['color-contrast', 'button-name', 'landmark-one-main']));
  // The line names the pale paragraph alone, and the contrast it measured (#aaa on white: 2.32:1).
  expect(found.find((line) => line.startsWith('color-contrast'))).toMatch(/^color-contrast: [^:]+: p \(.*contrast of 2\.32\b/);

  await page.setContent(`<!doctype html><html lang="en"><head><title>Check</title></head><body><main><h1>Fine</h1><p>Dark text</p><button>Named</button></main></body></html>`);
  expect(await accessibilityViolations(page)).toEqual([]);
});

test('from the keyboard: a page change puts the focus on the new page, the password can be shown, and the phone tab strip moves without opening pages', async ({ page }) => {
  const person = await verifiedPerson('keys');
  await page.goto('/auth/login');
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  // The link goes with its page: the focus went to <body>, and a screen reader said nothing.
  await page.getByRole('link', { name: 'Register' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Sign Up', level: 1 })).toBeFocused();
  await page.goBack();

  // Mantine leaves the eye that shows the password out of the Tab order.
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.keyboard.press('Tab');
  const eye = page.getByRole('button', { name: 'Toggle password visibility' });
  await expect(eye).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible();

  // On a phone the pages are a tab strip: the arrow keys move along it, Enter opens one.
  await page.setViewportSize({ width: 390, height: 844 });
  const strip = page.getByRole('navigation', { name: 'Main navigation' });
  await strip.getByRole('tab', { name: 'Home' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(strip.getByRole('tab', { name: 'Personal Info' })).toBeFocused();
  await expect(page.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Personal Info', level: 1 })).toBeVisible();
});

test("a field's edge shows at 3:1 against the page, and turns red with an error", async ({ page }) => {
  await page.goto('/auth/login');
  const email = page.getByLabel('Email');
  const contrast = (rgb: string) => {
    const [r, g, b] = rgb.match(/\d+/g)!.slice(0, 3).map((c) => Number(c) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 1.05 / (0.2126 * r! + 0.7152 * g! + 0.0722 * b! + 0.05);
  };
  for (const field of [email, page.getByLabel('Password', { exact: true })]) {
    expect(contrast(await field.evaluate((input) => getComputedStyle(input).borderTopColor))).toBeGreaterThanOrEqual(3);
  }
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText('Email is required')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).focus();
  const errorColour = await page.getByText('Email is required').evaluate((message) => getComputedStyle(message).color);
  // Polled: the border eases into its red (a run measured rgb(200, 44, 44) on the way to 201, 42, 42).
  await expect.poll(() => email.evaluate((input) => getComputedStyle(input).borderTopColor)).toBe(errorColour);
});

test('on a phone: fields in 16 px text (Safari zooms into smaller ones), links that stand alone tall enough to tap, admin fields typed as the machine reads them', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/auth/login');
  await expect(page.getByLabel('Email')).toHaveCSS('font-size', '16px');
  await expect(page.getByLabel('Password', { exact: true })).toHaveCSS('font-size', '16px');
  // A link in a sentence ("Don't have an account? Register") is spared, as WCAG 2.5.8 spares it.
  expect((await page.getByRole('link', { name: 'Forgot password?' }).boundingBox())!.height).toBeGreaterThanOrEqual(24);
  // On a wide screen, as before.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByLabel('Email')).toHaveCSS('font-size', '14px');

  await page.goto('/auth/login?from=%2Fadmin%2Fapi-services%2Fcreate');
  await signIn(page, E2E_ADMIN);
  // A phone's keyboard capitalised "Https://…", and the service's sign-ins never matched it.
  for (const label of ['Redirect URIs', 'Scopes', 'Grant Types', 'Allowed Groups', 'Home Page']) {
    await expect(page.getByLabel(label)).toHaveAttribute('autocapitalize', 'none');
    await expect(page.getByLabel(label)).toHaveAttribute('spellcheck', 'false');
  }
});

test('from the keyboard: a busy button keeps the focus, and the account menu opens on its first item', async ({ page }) => {
  const person = await verifiedPerson('busy');
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password', { exact: true }).fill(`${person.password}-wrong`);
  // Disabled while the server checks the password, Log In lost the focus to <body> for good.
  const logIn = page.getByRole('button', { name: 'Log In' });
  await logIn.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(logIn).toBeFocused();

  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await logIn.click();
  await expect(page.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible();
  // Mantine's menu put the focus on an unnamed placeholder, where a screen reader read nothing.
  await page.getByRole('button', { name: `${person.name}, account menu` }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Switch account' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Sign Out' })).toBeFocused();
});
