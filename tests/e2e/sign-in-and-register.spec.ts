import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startServerProcess } from '../support/server-process';
import { E2E_URL, newPerson, register, resetLinkFor, verifiedPerson, verifyThroughApi } from './support/api';
import { checkScreen, pageReadableTokens, shownStatus, signBackIn, signIn, signInToHome } from './support/ui';

test('register through the form, sign in, and see the welcome; tokens stay out of the page', async ({ page }) => {
  const person = newPerson('reg');
  // The page first asked for is carried from Sign In to Register and back (spec §2).
  await page.goto('/personal-info');
  await expect(page).toHaveURL(/\/auth\/login\?from=%2Fpersonal-info$/);
  await page.getByRole('link', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/auth\/register\?from=%2Fpersonal-info$/);
  await expect(page.getByRole('heading', { name: 'Sign Up' })).toBeVisible();
  await page.getByLabel('Full name').fill(person.name);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Phone (optional)').fill('+44 20 7946 0000');
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByLabel('Repeat password').fill(person.password);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('Account has been created. You can now log into your new account')).toBeVisible();
  await expect(page.getByLabel('Full name')).toHaveValue('');

  // The verification screens have their own tests; here the person verifies from another device.
  await verifyThroughApi(person);
  await page.getByRole('link', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/auth\/login\?from=%2Fpersonal-info$/);
  await signIn(page, person);
  await expect(page).toHaveURL(/\/personal-info$/);
  await expect(page.getByLabel('Full name')).toHaveValue(person.name);
  await page.getByRole('link', { name: 'Home', exact: true }).first().click();
  await expect(page.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible();
  await expect(page.getByText('Manage your info, private and security to make Home Guard work better for you.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  expect(await pageReadableTokens(page)).toEqual([]);
  const stored = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('guard-local', 3);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const accounts = await new Promise<any[]>((resolve) => {
      const request = db.transaction('accounts').objectStore('accounts').getAll();
      request.onsuccess = () => resolve(request.result);
    });
    db.close();
    return accounts.map((account) => ({
      email: account.email,
      label: account.label,
      accessIsBytes: account.access.data instanceof Uint8Array,
      refreshIsBytes: account.refresh.data instanceof Uint8Array,
      ivLengths: [account.access.iv.length, account.refresh.iv.length],
      accessText: new TextDecoder('latin1').decode(account.access.data),
    }));
  });
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject({ email: person.email, label: person.name, accessIsBytes: true, refreshIsBytes: true, ivLengths: [12, 12] });
  expect(stored[0]!.accessText).not.toContain('eyJ');

  // A navigation to the API (another site's link or form could start one) carries no token.
  const navigated = await page.goto('/api/v1/auth/profile');
  expect(navigated!.status()).toBe(401);
});

test('sign-in validation messages and server errors', async ({ page }) => {
  await page.goto('/auth/login');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText('Email is required')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();
  await checkScreen(page, 'sign-in-required-fields');
  await page.getByLabel('Email').fill('not-an-email');
  await expect(page.getByText('Invalid email')).toBeVisible(); // re-validates on change
  await page.getByLabel('Email').fill('nobody@e2e.test');
  await expect(page.getByText('Invalid email')).toBeHidden();
  await page.getByLabel('Password', { exact: true }).fill('Wrong-password1');
  await expect(page.getByText('Password is required')).toBeHidden();
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
  await checkScreen(page, 'sign-in-refused');
});

test('a sign-in the server is slow to answer is sent once and waited for, not sent again', async ({ page, context }) => {
  const person = await verifiedPerson('slow');
  await page.goto('/auth/login');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.reload(); // connected to the worker's broker, which sends the sign-in
  let sent = 0;
  // Longer than the page waits before asking whether the worker still runs.
  await context.route('**/api/v1/auth/login', async (route) => {
    sent += 1;
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    await route.continue();
  });
  await expect(page.getByText('Enter your credentials to access home services and tools.')).toBeVisible();
  await expect(page.getByText("Don't have an account?")).toBeVisible();
  await signIn(page, person);
  // Busy while it waits: a second press cannot send it again.
  const logIn = page.getByRole('button', { name: 'Log In' });
  await expect(logIn).toHaveAttribute('data-loading', 'true');
  await expect(logIn).toBeDisabled();
  await expect(page.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible({ timeout: 20_000 });
  expect(sent).toBe(1);
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
});

test('a forgotten password: a mailed link sets a new one, which signs the account out everywhere', async ({ page, browser }) => {
  const person = await verifiedPerson('forgot');
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await signInToHome(other, person);

  await page.goto('/auth/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot Password' })).toBeVisible();
  await page.getByRole('button', { name: 'Send Link' }).click();
  await expect(page.getByText('Email is required')).toBeVisible();
  await page.getByLabel('Email').fill(person.email);
  await checkScreen(page, 'forgot-password');
  await page.getByLabel('Email').press('Enter');
  await expect(shownStatus(page)).toContainText(`If an account uses ${person.email}, a link to choose a new password is on its way.`);
  // The message took the form's place, focused button and all: the focus is on it, not lost.
  await expect(page.getByRole('status')).toBeFocused();
  await checkScreen(page, 'forgot-password-sent');

  const link = await resetLinkFor(person.email);
  expect(new URL(link).origin).toBe(E2E_URL);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Choose a New Password' })).toBeVisible();
  expect(new URL(page.url()).hash, 'the token leaves the address bar').toBe('');
  await page.getByLabel('New Password').fill('Mailed-reset9');
  await page.getByLabel('Repeat Password').fill('Mailed-reset8');
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page.getByText('Password does not match')).toBeVisible();
  await page.getByLabel('Repeat Password').fill('Mailed-reset9');
  await checkScreen(page, 'reset-password');
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page.getByRole('heading', { name: 'Your new password is set' })).toBeVisible();

  // The link works once. Opened again in this tab, only the fragment changes: the page starts over.
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Choose a New Password' })).toBeVisible();
  await page.getByLabel('New Password').fill('Another-try77');
  await page.getByLabel('Repeat Password').fill('Another-try77');
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page.getByRole('alert')).toHaveText('This link has expired or was already used. Ask for a new one.');

  await signBackIn(other, person, 'Mailed-reset9');
  // Recent Activity tells the owner a link was asked for, and from where, before it was used.
  await other.getByRole('link', { name: 'Personal Info' }).first().click();
  const activity = other.locator('.mantine-Paper-root', { has: other.getByRole('heading', { name: 'Recent Activity' }) });
  await expect(activity.getByText('Password reset with a mailed link')).toBeVisible();
  await expect(activity.getByRole('listitem').filter({ hasText: 'Password reset link mailed' })).toContainText('127.0.0.1');
  await otherContext.close();
});

test('registration validation messages and server errors', async ({ page }) => {
  await page.goto('/auth/register');
  await page.getByRole('button', { name: 'Register' }).click();
  for (const message of ['Full name is required', 'Email is required', 'Password is required', 'Repeat password is required']) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  // An empty field in error shows its example in the grey of a field that is fine, not in red.
  const placeholderColor = (label: string) => page.getByLabel(label).evaluate((input) => getComputedStyle(input, '::placeholder').color);
  expect(await placeholderColor('Full name')).toBe(await placeholderColor('Phone (optional)'));
  const password = page.getByLabel('Password', { exact: true });
  const cases: Array<[string, string]> = [
    ['Ab1', 'Password must be at least 8 characters long'],
    ['12345678', 'Password must contain characters'],
    ['lowercase1', 'Password should contain at least 1 uppercase character'],
    ['NoDigitsAtAll', 'Password should contain at least 1 digit'],
  ];
  for (const [value, message] of cases) {
    await password.fill(value);
    await expect(page.getByText(message)).toBeVisible();
  }
  await page.getByLabel('Email').fill('broken@');
  await expect(page.getByText('Invalid email')).toBeVisible();
  await password.fill('Good-password1');
  await page.getByLabel('Repeat password').fill('Other-password1');
  await expect(page.getByText('Password does not match')).toBeVisible();
  await checkScreen(page, 'register-invalid');

  const existing = newPerson('taken');
  await register(existing);
  await page.getByLabel('Full name').fill('Someone Else');
  await page.getByLabel('Email').fill(existing.email.toUpperCase());
  await page.getByLabel('Repeat password').fill('Good-password1');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('alert')).toHaveText('Failed to create an account. Email is already registered');

  // A password the rules accept but guessers try first (ASVS 2.1.7).
  await page.getByLabel('Email').fill(newPerson('common').email);
  await password.fill('Password1');
  await page.getByLabel('Repeat password').fill('Password1');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('alert')).toHaveText('Failed to create an account. This password is one of the most common, which guessers try first; choose another');
  await checkScreen(page, 'register-common-password');
  await password.fill('Good-password1');
  await page.getByLabel('Repeat password').fill('Good-password1');

  // No answer at all (the connection failed) has its own words (spec §8).
  await page.context().route('**/api/v1/register', (route) => route.abort('connectionfailed'));
  await page.getByLabel('Email').fill(newPerson('unsent').email);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('alert')).toHaveText('Failed to create account. Unexpected error happened');
});

test('screenshots of the sign-in screens, the picker, home and personal info', async ({ page }) => {
  const person = await verifiedPerson('shot');
  await page.goto('/auth/login');
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Register' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Choose a saved account' })).toBeHidden(); // none saved yet
  await checkScreen(page, 'sign-in');
  await page.goto('/auth/register');
  await expect(page.getByRole('heading', { name: 'Sign Up' })).toBeVisible();
  await checkScreen(page, 'register');
  await signInToHome(page, person);
  await checkScreen(page, 'home');
  await page.getByRole('link', { name: 'Personal Info' }).first().click();
  await expect(page.getByRole('heading', { name: 'Personal Info' })).toBeVisible();
  // The name is there to read, not to type in: shaded, unlike a field of a form (it looked like one waiting for a Save).
  expect(await page.getByLabel('Full name').evaluate((input) => getComputedStyle(input).backgroundColor)).not.toBe('rgb(255, 255, 255)');
  await checkScreen(page, 'personal-info');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Switch account' }).click();
  await expect(page.getByRole('heading', { name: 'Select Account' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create an account' })).toBeVisible();
  await checkScreen(page, 'select-account');
  // An installed app has no back button: Sign In leads back to the saved accounts.
  await page.getByText('Add new account').click();
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await checkScreen(page, 'sign-in-with-saved-accounts');
  await page.getByRole('link', { name: 'Choose a saved account' }).click();
  await expect(page.getByRole('heading', { name: 'Select Account' })).toBeVisible();
  await page.getByRole('button', { name: new RegExp(person.email) }).click();
  await expect(page.getByRole('heading', { name: 'Personal Info' })).toBeVisible(); // where "Switch account" was chosen
});

test('with registration closed, the sign-in screens say so instead of offering a form that will be refused', async ({ page }) => {
  const server = await startServerProcess({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'hg-e2e-closed-')), STATIC_DIR: 'dist', REGISTRATION: 'closed' });
  try {
    // No administrator yet: the first account may register, and the form is there for it.
    await page.goto(`${server.url}/auth/register`);
    await expect(page.getByLabel('Full name')).toBeVisible();
    const admin = newPerson('owner');
    await register(admin, server.url);

    await page.goto(`${server.url}/auth/login`);
    await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Register' })).toBeHidden();
    await page.goto(`${server.url}/auth/register`);
    await expect(shownStatus(page)).toContainText('Registration is closed');
    await expect(shownStatus(page)).toContainText('Only an administrator of this Home Guard can create accounts. Ask them for one.');
    await expect(page.getByLabel('Full name')).toBeHidden();
    await checkScreen(page, 'register-closed');
    await page.getByRole('link', { name: 'Log In' }).click();
    await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  } finally {
    await server.stop();
  }
});
