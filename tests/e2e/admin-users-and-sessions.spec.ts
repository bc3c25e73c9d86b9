import { expect, test } from '@playwright/test';
import { E2E_ADMIN } from './global-setup';
import { E2E_URL, login, newPerson, register, verifiedPerson } from './support/api';
import { screenshots, signIn } from './support/ui';

test('users: create one, see "never" until it signs in, search on the server', async ({ page, browser }) => {
  await page.goto('/auth/login?from=%2Fadmin%2Fusers');
  await signIn(page, E2E_ADMIN);
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  await page.getByRole('link', { name: 'Add User' }).click();
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Full Name is required')).toBeVisible();

  const person = newPerson('alice');
  await page.getByLabel('Name').fill(`Alice ${person.name}`);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByLabel('Repeat Password').fill(person.password);
  await screenshots(page, 'admin-user-create');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  const row = page.getByRole('row', { name: new RegExp(person.email) });
  await expect(row).toContainText('never');
  await screenshots(page, 'admin-users-list');

  const second = await browser.newContext();
  const other = await second.newPage();
  await other.goto(`${E2E_URL}/auth/login`);
  await signIn(other, person);
  await expect(other).toHaveURL(/\/verify/);
  await second.close();
  await page.reload();
  await expect(page.getByRole('row', { name: new RegExp(person.email) })).not.toContainText('never');

  await page.getByLabel('Search').fill('ali');
  await expect(page).toHaveURL(/search=ali/);
  const names = await page.getByRole('row').allInnerTexts();
  expect(names.slice(1).every((text) => /ali/i.test(text))).toBe(true);

  await page.getByRole('link', { name: `Alice ${person.name}` }).click();
  await expect(page.getByText('-', { exact: true })).toBeVisible(); // no phone
  await screenshots(page, 'admin-user-view');
  await page.getByRole('link', { name: 'Edit' }).click();
  await page.getByLabel('Phone Number').fill('+1 555 0100');
  await screenshots(page, 'admin-user-edit');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('+1 555 0100')).toBeVisible();
});

test('a non-admin is kept out of every admin path and API', async ({ page }) => {
  const person = await verifiedPerson('outsider');
  await page.goto('/auth/login');
  await signIn(page, person);
  await expect(page.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible();
  for (const path of ['/admin/api-services', '/admin/users/create', '/admin/user-sessions']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/not-allowed$/);
  }
  const { access } = await login(person);
  for (const path of ['/api/v1/admin/users', '/api/v1/admin/api-services', '/api/v1/admin/user-sessions', '/api/v1/admin/service-sessions']) {
    expect((await fetch(`${E2E_URL}${path}`, { headers: { authorization: `Bearer ${access}` } })).status, path).toBe(403);
  }
});

test('user sessions: pages, (You), revoking ends the session at once', async ({ page }) => {
  const person = newPerson('many');
  await register(person);
  const tokens = [];
  for (let i = 0; i < 23; i++) tokens.push(await login(person));

  await page.goto('/auth/login?from=%2Fadmin%2Fuser-sessions');
  await signIn(page, E2E_ADMIN);
  await expect(page.getByRole('heading', { name: 'User Sessions' })).toBeVisible();
  await expect(page.getByText('(You)').first()).toBeVisible();
  await page.getByLabel('Search').fill(person.email);
  const pages = page.getByRole('navigation', { name: 'Pages' });
  await expect(pages.getByRole('button', { name: '3' })).toBeVisible();
  await expect(pages.getByRole('button', { name: '4' })).toHaveCount(0);
  await pages.getByRole('button', { name: '3' }).click();
  await expect(page).toHaveURL(/page=3/);
  await expect(page.getByRole('row')).toHaveCount(4); // header + 3
  await screenshots(page, 'admin-user-sessions');

  await pages.getByRole('button', { name: '1' }).click();
  const newest = page.getByRole('row').nth(1);
  await newest.getByRole('button', { name: 'Revoke' }).click();
  await expect(newest.getByText('Inactive')).toBeVisible();
  await expect(newest.getByText('Inactive')).toHaveCSS('color', 'rgb(250, 82, 82)');
  await expect(newest.getByRole('button', { name: 'Revoke' })).toBeDisabled();
  expect((await fetch(`${E2E_URL}/api/v1/auth/profile`, { headers: { authorization: `Bearer ${tokens.at(-1)!.access}` } })).status).toBe(401);
});
