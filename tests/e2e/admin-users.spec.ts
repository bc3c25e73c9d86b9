import { expect, test } from '@playwright/test';
import { E2E_ADMIN } from './global-setup';
import { createService, E2E_URL, login, newPerson, register, verifiedPerson, verifyThroughApi } from './support/api';
import { checkScreen, personOnTheirDevice, shownStatus, signIn, signInToHome } from './support/ui';

test('users: create one, see "never" until it signs in, search on the server', async ({ page, browser }) => {
  await page.goto('/auth/login?from=%2Fadmin%2Fusers');
  await signIn(page, E2E_ADMIN);
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  await page.getByRole('link', { name: 'Add User' }).click();
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Full Name is required')).toBeVisible();
  await page.getByLabel('Email').fill('alice-at-home');
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByLabel('Repeat Password').fill('shorter');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Invalid email')).toBeVisible();
  await expect(page.getByText('Password must be at least 8 characters long')).toBeVisible();
  await expect(page.getByText('Password does not match')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('longenough1');
  await expect(page.getByText('Password should contain at least 1 uppercase character')).toBeVisible();
  // Cancel leaves without creating anyone; the form starts empty again.
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByRole('row', { name: /alice-at-home/ })).toHaveCount(0);
  await page.getByRole('link', { name: 'Add User' }).click();
  await expect(page.getByLabel('Email')).toHaveValue('');

  const person = newPerson('alice');
  await page.getByLabel('Name', { exact: true }).fill(`Alice ${person.name}`);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByLabel('Repeat Password').fill(person.password);
  await page.getByLabel('Groups').fill('family');
  // Shown as text by its eye button, a password is still kept out of the form's draft.
  for (const toggle of await page.locator('.mantine-PasswordInput-visibilityToggle').all()) await toggle.click();
  await expect(page.getByLabel('Repeat Password')).toHaveAttribute('type', 'text');
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByLabel('Repeat Password').fill(person.password);
  const draft = await page.evaluate(() => sessionStorage.getItem('guard-draft:user-create'));
  expect(draft).toContain(person.email);
  expect(draft).not.toContain(person.password);
  // Username left empty: made from the email.
  await checkScreen(page, 'admin-user-create');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  const row = page.getByRole('row', { name: new RegExp(person.email) });
  await expect(row).toContainText('never');
  await expect(row.getByRole('cell').nth(2), 'Is Admin').toHaveText('No');
  // The address wraps after its @ or before a dot of its domain, if at all, never inside a word:
  // no piece of its text spans two lines, at a desktop's width or a phone's (the table scrolls).
  const piecesOnTwoLines = () =>
    row.getByRole('cell').nth(1).evaluate((cell) => {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      const broken: string[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(node);
        if (new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1) broken.push(node.textContent ?? '');
      }
      return broken;
    });
  for (const width of [1280, 1024, 390]) {
    await page.setViewportSize({ width, height: 800 });
    // Polled: the table becomes cards, and the sidebar slides away, after the resize (measured mid-way once).
    await expect.poll(piecesOnTwoLines, { message: `at ${width} px` }).toEqual([]);
  }
  await expect(row.getByRole('cell').nth(1)).toHaveText(person.email); // copied, it is the address
  await checkScreen(page, 'admin-users-list');

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
  // The URL changes before the server's answer is drawn, so wait for the rows to follow it.
  const rowsMatch = async () => {
    const rows = (await page.getByRole('row').allInnerTexts()).slice(1);
    return rows.length > 0 && rows.every((text) => /ali/i.test(text));
  };
  await expect.poll(rowsMatch).toBe(true);
  const rowCount = (await page.getByRole('row').count()) - 1;
  await expect(shownStatus(page)).toHaveText(`Users: ${rowCount} shown`); // what a screen reader is told
  // Back and forward move the search box with the address, not only the rows.
  await page.goBack();
  await expect(page).not.toHaveURL(/search=/);
  await expect(page.getByLabel('Search')).toHaveValue('');
  await page.goForward();
  await expect(page.getByLabel('Search')).toHaveValue('ali');
  await expect.poll(rowsMatch).toBe(true);
  await page.getByLabel('Search').fill('zz-no-such-user');
  await expect(page.getByText('No users found.')).toBeVisible();
  await expect(shownStatus(page)).toHaveText('No users found.');
  await page.goBack();
  await expect(page.getByLabel('Search')).toHaveValue('ali');
  await expect.poll(rowsMatch).toBe(true);

  await page.getByRole('link', { name: `Alice ${person.name}` }).click();
  await expect(page.getByText('-', { exact: true })).toBeVisible(); // no phone
  await expect(page.getByText('family', { exact: true })).toBeVisible();
  const madeUsername = person.email.split('@')[0]!;
  await expect(page.getByText(madeUsername, { exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByLabel('Groups')).toHaveValue('family');
  await expect(page.getByLabel('Username')).toHaveValue(madeUsername);
  await page.getByLabel('Username').fill('Alice Liddell');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Username may have letters and digits, with single . _ or - between them')).toBeVisible();
  await page.getByLabel('Username').fill(`Alice-${madeUsername}`);
  await page.getByLabel('Phone Number').fill('+1 555 0100');
  await page.getByLabel('Groups').fill('family, grafana;admins');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('A group name is up to 64 letters, digits, spaces and . _ -, starting with a letter or digit')).toBeVisible();
  await page.getByLabel('Groups').fill('family, grafana-admins, family');
  await checkScreen(page, 'admin-user-edit');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('+1 555 0100')).toBeVisible();
  await expect(page.getByText('family, grafana-admins', { exact: true })).toBeVisible();
  await expect(page.getByText(`alice-${madeUsername}`, { exact: true }), 'lower-cased').toBeVisible();
  await checkScreen(page, 'admin-user-view');
});

test('an administrator sets a forgotten password: the person is signed out everywhere, then signs in with the new one', async ({ page, browser }) => {
  const { person, id, device, close } = await personOnTheirDevice(browser, 'forgot');

  await page.goto(`/auth/login?from=${encodeURIComponent(`/admin/users/edit/${id}`)}`);
  await signIn(page, E2E_ADMIN);
  await page.getByRole('button', { name: 'Set New Password' }).click();
  const dialog = page.getByRole('dialog', { name: `Set a new password for ${person.name}` });
  await dialog.getByRole('button', { name: 'Set New Password' }).click();
  await expect(dialog.getByText('Password is required', { exact: true })).toBeVisible();
  await dialog.getByLabel('New Password').fill('short');
  await dialog.getByLabel('Repeat Password').fill('short');
  await expect(dialog.getByText('Password must be at least 8 characters long')).toBeVisible();
  await dialog.getByLabel('New Password').fill('Fresh-start42');
  await dialog.getByLabel('Repeat Password').fill('Fresh-start4');
  await dialog.getByRole('button', { name: 'Set New Password' }).click();
  await expect(dialog.getByText('Password does not match')).toBeVisible();
  await dialog.getByLabel('Repeat Password').fill('Fresh-start42');
  await checkScreen(page, 'admin-user-set-password');
  await dialog.getByRole('button', { name: 'Set New Password' }).click();
  await expect(dialog).toBeHidden();
  await expect(shownStatus(page)).toHaveText(`The new password is set. ${person.name} was signed out of every device and service.`);
  await checkScreen(page, 'admin-user-password-set');

  await device.reload();
  await expect(device.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await expect(shownStatus(device)).toHaveText(`You were signed out of ${person.email}. Sign in again to go on.`);
  await device.getByLabel('Password', { exact: true }).fill(person.password);
  await device.getByRole('button', { name: 'Log In' }).click();
  await expect(device.getByText('Invalid email or password')).toBeVisible();
  await device.getByLabel('Password', { exact: true }).fill('Fresh-start42');
  await device.getByRole('button', { name: 'Log In' }).click();
  await expect(device.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible();
  await close();
});

test('going back to a user deleted meanwhile says so, not the user last on screen', async ({ page, context }) => {
  const [gone, kept] = [newPerson('gone'), newPerson('kept')];
  await register(gone);
  await register(kept);
  await page.goto('/auth/login?from=%2Fadmin%2Fusers');
  await signIn(page, E2E_ADMIN);
  await page.getByRole('link', { name: gone.name }).click();
  await expect(page.getByText(gone.email)).toBeVisible();
  const goneId = new URL(page.url()).pathname.split('/').pop() ?? '';
  await page.getByRole('link', { name: 'Back' }).click();
  await page.getByRole('link', { name: kept.name }).click();
  await expect(page.getByText(kept.email)).toBeVisible();

  // Another admin deletes the first user; this one goes two pages back, to its view. The router
  // keeps the mounted view page and only changes its parameter.
  const { access } = await login(E2E_ADMIN);
  expect((await fetch(`${E2E_URL}/api/v1/admin/users/${goneId}`, { method: 'DELETE', headers: { authorization: `Bearer ${access}` } })).status).toBe(200);
  await page.evaluate(() => history.go(-2));
  await expect(page).toHaveURL(new RegExp(`/admin/users/view/${goneId}$`));
  await expect(page.getByText('This user does not exist.')).toBeVisible();
  await expect(page.getByText(kept.email)).toBeHidden();
  await expect(page.getByRole('link', { name: 'Edit' })).toBeHidden();
  await checkScreen(page, 'admin-user-missing');
  await page.getByRole('link', { name: 'Back' }).click();
  await expect(page.getByRole('link', { name: kept.name })).toBeVisible(); // the list has loaded
  await expect(page.getByRole('link', { name: gone.name })).toBeHidden();

  // Offline, a user that cannot be loaded is not said not to exist, nor a list said to be empty.
  await context.setOffline(true);
  await page.getByRole('link', { name: kept.name }).click();
  await expect(page.getByRole('link', { name: 'Back' })).toBeVisible(); // loading has ended
  await expect(page.getByText('You are offline.')).toBeVisible();
  await expect(page.getByText('This user does not exist.')).toBeHidden();
  await page.getByRole('link', { name: 'Back' }).click();
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  await expect(page.getByText('Loading...')).toBeHidden();
  await expect(page.getByText('No users found.')).toBeHidden();
});

test("an edit saved from a form opened before another administrator's edit is refused, and says so, undoing nothing", async ({ page }) => {
  const person = newPerson('edited');
  await register(person);
  await page.goto('/auth/login?from=%2Fadmin%2Fusers');
  await signIn(page, E2E_ADMIN);
  await page.getByRole('link', { name: person.name }).click();
  const userId = new URL(page.url()).pathname.split('/').pop() ?? '';
  await page.getByRole('link', { name: 'Edit' }).click();
  await page.getByLabel('Name', { exact: true }).fill(`${person.name} Jr`);

  // Meanwhile another administrator gives the account another email.
  const { access } = await login(E2E_ADMIN);
  const headers = { authorization: `Bearer ${access}`, 'content-type': 'application/json' };
  const moved = { full_name: person.name, email: `moved.${person.email}`, is_admin: false };
  expect((await fetch(`${E2E_URL}/api/v1/admin/users/${userId}`, { method: 'PUT', headers, body: JSON.stringify(moved) })).status).toBe(200);

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert')).toContainText('Another administrator changed this account since you opened it');
  const now = await (await fetch(`${E2E_URL}/api/v1/admin/users/${userId}`, { headers })).json();
  expect(now).toMatchObject({ full_name: person.name, email: moved.email });
  await checkScreen(page, 'admin-user-edit-changed-meanwhile');
  // Reloaded, as it says, the form shows their change, and saves.
  await page.reload();
  await expect(page.getByLabel('Email')).toHaveValue(moved.email);
  await page.getByLabel('Name', { exact: true }).fill(`${person.name} Jr`);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: `${person.name} Jr` })).toBeVisible();
});

test('a non-admin is kept out of every admin path and API', async ({ page }) => {
  const person = await verifiedPerson('outsider');
  await signInToHome(page, person);
  for (const path of ['/admin/api-services', '/admin/users/create', '/admin/user-sessions']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/not-allowed$/);
  }
  const { access } = await login(person);
  for (const path of ['/api/v1/admin/users', '/api/v1/admin/api-services', '/api/v1/admin/user-sessions', '/api/v1/admin/service-sessions']) {
    expect((await fetch(`${E2E_URL}${path}`, { headers: { authorization: `Bearer ${access}` } })).status, path).toBe(403);
  }
});

/** What another administrator does meanwhile, through the API. */
const editUser = (adminToken: string, id: string, user: { full_name: string; email: string; is_admin: boolean }) =>
  fetch(`${E2E_URL}/api/v1/admin/users/${id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
    body: JSON.stringify({ ...user, phone_number: null }),
  });

test('an email changed by an administrator is verified again, then shown on the device in place of the old one', async ({ page }) => {
  const person = await verifiedPerson('moved');
  await signInToHome(page, person);

  const moved = { ...person, email: person.email.replace(/^moved\./, 'relocated.') };
  const [{ id }, { access }] = [await login(person), await login(E2E_ADMIN)];
  expect((await editUser(access, id, { full_name: person.name, email: moved.email, is_admin: false })).status).toBe(200);

  await page.reload();
  await expect(page).toHaveURL(/\/verify/);
  await verifyThroughApi(moved);
  await page.goto('/');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('menu')).toContainText(moved.email);
  await page.getByRole('menuitem', { name: 'Switch account' }).click();
  const saved = page.getByRole('list', { name: 'Saved accounts' });
  await expect(saved).toContainText(moved.email);
  await expect(saved).not.toContainText(person.email);
});

/** A second administrator, verified, and the first one's token to change it with. */
async function deputyAdmin() {
  const admin = newPerson('deputy');
  const { access } = await login(E2E_ADMIN);
  const created = await fetch(`${E2E_URL}/api/v1/admin/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${access}` },
    body: JSON.stringify({ full_name: admin.name, email: admin.email, password: admin.password, is_admin: true }),
  });
  expect(created.ok).toBe(true);
  await verifyThroughApi(admin);
  return { admin, id: (await login(admin)).id, firstAdminToken: access };
}

test("an administrator's own password and two-step are changed on Personal Info, and their own email only with their password", async ({ page }) => {
  const { admin, id } = await deputyAdmin();
  await page.goto(`/auth/login?from=${encodeURIComponent(`/admin/users/edit/${id}`)}`);
  await signIn(page, admin);
  await expect(page.getByText('This is your own account: change your password on Personal Info, which asks for your current password.')).toBeVisible();
  await expect(page.getByText('This is your own account: change your two-step sign-in on Personal Info, which asks for your current password.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Set New Password' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete User' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Open Personal Info' }).first()).toHaveAttribute('href', '/personal-info');
  await expect(page.getByLabel('Current Password')).toHaveCount(0); // nothing asked while the email stays
  await checkScreen(page, 'admin-user-edit-own');

  const moved = newPerson('deputy-moved');
  await page.getByLabel('Email').fill(moved.email);
  await page.getByLabel('Current Password').fill('Not-my-password1');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The current password is wrong')).toBeVisible();
  await page.getByLabel('Current Password').fill(admin.password);
  await page.getByRole('button', { name: 'Save' }).click();
  // A new address is verified again: the verification flow comes first.
  await expect(page.getByRole('link', { name: 'Start Verification' })).toBeVisible();
});

test('an administrator who gives up their own admin right leaves the admin area at once, renamed', async ({ page }) => {
  const { admin, id } = await deputyAdmin();
  await page.goto(`/auth/login?from=${encodeURIComponent(`/admin/users/edit/${id}`)}`);
  await signIn(page, admin);
  await page.getByLabel('Name', { exact: true }).fill(`Former ${admin.name}`);
  await page.getByLabel('Is Admin').uncheck();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/not-allowed$/);
  await expect(page.getByRole('link', { name: 'Users' })).toBeHidden();
  await expect(page.getByText(`Former ${admin.name}`).first()).toBeVisible();
});

test('an administrator demoted by another is sent out of the admin area by the next screen that loads', async ({ page }) => {
  const { admin, id, firstAdminToken } = await deputyAdmin();
  await page.goto('/auth/login?from=%2Fadmin%2Fusers');
  await signIn(page, admin);
  await expect(page.getByRole('link', { name: E2E_ADMIN.name })).toBeVisible();

  expect((await editUser(firstAdminToken, id, { full_name: admin.name, email: admin.email, is_admin: false })).status).toBe(200);
  await page.getByRole('link', { name: E2E_ADMIN.name }).click();
  await expect(page).toHaveURL(/\/not-allowed$/);
  await expect(page.getByRole('link', { name: 'User Sessions' })).toBeHidden();
});

test('an administrator makes another administrator: Is Admin switched on in Add User shows Yes in the list and on the page', async ({ page }) => {
  await page.goto('/auth/login?from=%2Fadmin%2Fusers%2Fcreate');
  await signIn(page, E2E_ADMIN);
  const person = newPerson('deputy');
  await page.getByLabel('Name', { exact: true }).fill(person.name);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByLabel('Repeat Password').fill(person.password);
  await page.getByLabel('Is Admin').check();
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await page.getByLabel('Search').fill(person.email);
  const row = page.getByRole('row', { name: new RegExp(person.email) });
  await expect(row.getByRole('cell').nth(2), 'Is Admin').toHaveText('Yes');
  await row.getByRole('link', { name: person.name }).click();
  await expect(page.getByRole('heading', { name: person.name })).toBeVisible();
  await expect(page.getByRole('main')).toContainText(/Is Admin\s*Yes/);
});

test("a list says Loading... while its rows are on their way, and a service's page Loading API Service...", async ({ page, context }) => {
  await page.goto('/auth/login?from=%2Fadmin%2Fuser-sessions');
  await signIn(page, E2E_ADMIN);
  await expect(page.getByRole('heading', { name: 'User Sessions' })).toBeVisible();
  await expect(page.getByRole('row').nth(1)).toBeVisible();
  await context.route((url) => url.pathname === '/api/v1/admin/users', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Users' }).click();
  await expect(page.getByText('Loading...')).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(E2E_ADMIN.email) })).toBeVisible();
  await expect(page.getByText('Loading...')).toBeHidden();

  const name = `Slow ${Date.now().toString(36)}`;
  const { id } = await createService(E2E_ADMIN, { name, redirect_uris: ['https://slow.home.lan/callback'] });
  await context.route((url) => url.pathname === `/api/v1/admin/api-services/${id}`, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });
  await page.goto(`/admin/api-services/view/${id}`);
  await expect(page.getByText('Loading API Service...')).toBeVisible();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(page.getByText('Loading API Service...')).toBeHidden();
});
