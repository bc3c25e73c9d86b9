import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { E2E_ADMIN } from './global-setup';
import { createService, E2E_URL, login, newPerson, verifyThroughApi, type Person } from './support/api';
import { allowClipboardWrites, checkScreen, expectInSight, signIn } from './support/ui';

/** Signs in on Add API Service and types a new service's name (made unique), description and redirect URIs; gives the name. */
async function typeNewService(page: Page, admin: Person, service: { name: string; description: string; redirectUris: string }): Promise<string> {
  await page.goto('/auth/login?from=%2Fadmin%2Fapi-services%2Fcreate');
  await signIn(page, admin);
  const name = `${service.name} ${Date.now().toString(36)}`;
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Description').fill(service.description);
  await page.getByLabel('Redirect URIs').fill(service.redirectUris);
  return name;
}

test('an administrator creates a service, downloads its credentials, disables, enables and edits it', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  await page.goto('/auth/login?from=%2Fadmin%2Fapi-services');
  await signIn(page, E2E_ADMIN);
  await expect(page.getByRole('heading', { name: 'API Services' })).toBeVisible();
  await checkScreen(page, 'admin-services-list');
  await page.getByLabel('Search').fill('zz-no-such-service');
  await expect(page.getByText('No services found.')).toBeVisible();
  await page.getByLabel('Search').fill('');
  await expect(page).not.toHaveURL(/search=/);
  await page.getByRole('link', { name: 'Add API Service' }).click();
  await expect(page.getByLabel('Scopes')).toHaveValue('openid');
  await expect(page.getByLabel('Enabled by default')).toBeChecked();

  // Cancel leaves without creating anything.
  await page.getByLabel('Name').fill('Never created');
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/admin\/api-services$/);
  await expect(page.getByRole('row', { name: /Never created/ })).toHaveCount(0);
  await page.getByRole('link', { name: 'Add API Service' }).click();

  await page.getByLabel('Scopes').fill('');
  await page.getByRole('button', { name: 'Create' }).click();
  for (const message of ['Name is required', 'Description is required', 'At least one URI is required', 'Scopes are required']) await expect(page.getByText(message)).toBeVisible();

  const name = `Paperless ${Date.now().toString(36)}`;
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Description').fill('Documents');
  await page.getByLabel('Redirect URIs').fill('https://paperless.home.lan/accounts/oidc/callback/\nhttps://paperless.home.lan/other');
  await page.getByLabel('Scopes').fill('openid email profile');
  await checkScreen(page, 'admin-service-create');
  await page.getByRole('button', { name: 'Create' }).click();

  const modal = page.getByRole('dialog', { name: 'New Credentials' });
  await expect(modal).toBeVisible();
  const clientId = await modal.getByLabel('Client ID', { exact: true }).inputValue();
  const secret = await modal.getByLabel('Client Secret', { exact: true }).inputValue();
  expect(secret.length).toBeGreaterThanOrEqual(43);
  await modal.getByRole('button', { name: 'Copy Client Secret' }).click();
  await expect.poll(clipboard).toBe(secret);
  await checkScreen(page, 'admin-service-credentials');
  const downloading = page.waitForEvent('download');
  await modal.getByRole('button', { name: 'Download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('credentials.json');
  expect(JSON.parse(readFileSync((await download.path())!, 'utf8'))).toEqual({ client_id: clientId, client_secret: secret });
  await modal.getByRole('button', { name: 'Close', exact: true }).click();

  await expect(page).toHaveURL(/\/admin\/api-services$/);
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText(clientId);
  await expect(row).toContainText('Yes');
  await row.getByRole('link', { name }).click();
  await expect(page.getByText('••••••••••••••••')).toBeVisible();
  await expect(page.getByText(secret)).toHaveCount(0);
  // What to type into the service: PUBLIC_URL's addresses, each with a copy button.
  await expect(page.getByRole('heading', { name: `Connecting ${name}` })).toBeVisible();
  await expect(page.getByText(`${E2E_URL}/.well-known/openid-configuration`, { exact: true })).toBeVisible();
  await expect(page.getByText(`${E2E_URL}/api/v1/oauth/token`, { exact: true })).toBeVisible();
  await expect(page.getByText('Everyone', { exact: true })).toBeVisible();
  await checkScreen(page, 'admin-service-view');
  await page.getByRole('button', { name: 'Copy Discovery URL' }).click();
  await expect.poll(clipboard).toBe(`${E2E_URL}/.well-known/openid-configuration`);
  await page.getByRole('button', { name: 'Copy Client ID' }).click();
  await expect.poll(clipboard).toBe(clientId);
  // For apps with a fixed sign-out address: naming the service lets it have people sent back.
  await page.getByRole('button', { name: 'Copy Sign-out URL' }).click();
  await expect.poll(clipboard).toBe(`${E2E_URL}/signout?client_id=${clientId}`);

  const consent = `/auth?${new URLSearchParams({ client_id: clientId, redirect_uri: 'https://paperless.home.lan/other', response_type: 'code', scope: 'openid' })}`;
  await page.getByRole('button', { name: 'Disable' }).click();
  await expect(page.getByText('Inactive')).toBeVisible();
  const other = await page.context().newPage();
  await other.goto(consent);
  await expect(other.getByRole('heading', { name: 'This sign-in request cannot be used' })).toBeVisible();
  await page.bringToFront();
  await page.getByRole('button', { name: 'Enable' }).click();
  await expect(page.getByText('Active', { exact: true })).toBeVisible();
  await other.goto(consent);
  await expect(other.getByText(`Are you sure you want to trust ${name}?`)).toBeVisible();

  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByLabel('Name')).toHaveValue(name);
  // A scheme that is not a reverse domain name is refused; a mobile app's own scheme (RFC 8252) is kept.
  await page.getByLabel('Redirect URIs').fill('https://paperless.home.lan/new-callback\njavascript:alert(1)');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText("Each URI must be an absolute http(s) URL, or an app's own scheme such as app.immich:/, without a fragment")).toBeVisible();
  await page.getByLabel('Redirect URIs').fill('https://paperless.home.lan/new-callback\napp.paperless:///oauth-callback');
  await page.getByLabel('Allowed Groups').fill('family, paperless users');
  await page.getByLabel('Require Two-Step Sign-In').check();
  await page.getByLabel('Home Page').fill('https://paperless.home.lan/');
  await checkScreen(page, 'admin-service-edit');
  await page.getByRole('button', { name: 'Update' }).click();
  const updated = page.getByRole('dialog', { name: 'Service Updated' });
  await expect(updated.getByText('Service has updated successfully!')).toBeVisible();
  await updated.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Update' })).toBeFocused(); // the form is made anew; focus is not lost
  await page.goto(page.url().replace('/edit/', '/view/'));
  await expect(page.getByText('https://paperless.home.lan/new-callback')).toBeVisible();
  await expect(page.getByText('app.paperless:///oauth-callback')).toBeVisible();
  await expect(page.getByText('family, paperless users', { exact: true })).toBeVisible();
  await expect(page.getByText('Two-Step Sign-In').locator('..')).toContainText('Required');
  await expect(page.getByText('https://paperless.home.lan/', { exact: true })).toBeVisible();

  // An address of a service that does not exist (a mistyped or stale link) says so.
  await page.goto('/admin/api-services/edit/00000000-0000-0000-0000-000000000000');
  await expect(page.getByText('This service does not exist.')).toBeVisible();
  await page.getByRole('link', { name: 'Back' }).click();
  await expect(page.getByRole('row', { name: new RegExp(clientId) })).toBeVisible();
});

test('an administrator adds a public client: no secret to copy or regenerate, until it is made confidential', async ({ page }) => {
  const name = await typeNewService(page, E2E_ADMIN, { name: 'Jellyfin app', description: 'Films on the phone', redirectUris: 'org.jellyfin.mobile:/callback' });
  await page.getByLabel('Public Client').check();
  await page.getByRole('button', { name: 'Create' }).click();

  const modal = page.getByRole('dialog', { name: 'New Credentials' });
  await expect(modal.getByText('A public client has no secret: give the app its client ID, and have it use PKCE.')).toBeVisible();
  await expect(modal.getByLabel('Client Secret')).toHaveCount(0);
  const clientId = await modal.getByLabel('Client ID', { exact: true }).inputValue();
  await checkScreen(page, 'admin-service-public-credentials');
  const downloading = page.waitForEvent('download');
  await modal.getByRole('button', { name: 'Download' }).click();
  expect(JSON.parse(readFileSync((await (await downloading).path())!, 'utf8'))).toEqual({ client_id: clientId });
  await modal.getByRole('button', { name: 'Close', exact: true }).click();

  await page.getByRole('row', { name: new RegExp(clientId) }).getByRole('link', { name }).click();
  await expect(page.getByText('None: a public client, which must use PKCE')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Regenerate Credentials' })).toHaveCount(0);
  await expect(page.getByText(`Enter these in ${name}'s OpenID Connect settings, with its client ID. Most services`)).toBeVisible();
  await checkScreen(page, 'admin-service-public-view');

  // A copy the browser refuses says so, rather than look like a click that did nothing.
  await allowClipboardWrites(page, 'denied');
  await page.getByRole('button', { name: 'Copy Client ID' }).click();
  await expect(page.getByRole('tooltip')).toHaveText('Could not copy. Select the text and copy it yourself.');
  await checkScreen(page, 'admin-service-copy-refused');
  await allowClipboardWrites(page, 'granted');
  await page.context().grantPermissions(['clipboard-read']);
  await page.getByRole('button', { name: 'Copy Client ID' }).click();
  await expect(page.getByText('Could not copy', { exact: false })).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(clientId);

  await page.getByRole('link', { name: 'Edit' }).click();
  const publicClient = page.getByLabel('Public Client');
  await expect(publicClient).toBeChecked();
  await expect(page.getByText('Turned off, it needs new credentials: regenerate them on its page')).toBeVisible();
  await publicClient.uncheck();
  await page.getByRole('button', { name: 'Update' }).click();
  await page.getByRole('dialog', { name: 'Service Updated' }).getByRole('button', { name: 'Close', exact: true }).click();
  await page.goto(page.url().replace('/edit/', '/view/'));
  await page.getByRole('button', { name: 'Regenerate Credentials' }).click();
  await page.getByRole('dialog', { name: 'Regenerate credentials?' }).getByRole('button', { name: 'Regenerate' }).click();
  expect((await page.getByRole('dialog', { name: 'New Credentials' }).getByLabel('Client Secret', { exact: true }).inputValue()).length).toBeGreaterThanOrEqual(43);
});

test('Disable, Enable and Regenerate act once however often they are clicked, and a failure says so', async ({ page, context }) => {
  const { id, clientId } = await createService(E2E_ADMIN, { name: `Wiki ${Date.now().toString(36)}`, redirect_uris: ['https://wiki.home.lan/callback'] });
  await page.goto(`/auth/login?from=${encodeURIComponent(`/admin/api-services/view/${id}`)}`);
  await signIn(page, E2E_ADMIN);
  await expect(page.getByText('Active', { exact: true })).toBeVisible();

  // Regenerate confirmed with a double click makes one secret, the one shown.
  const regenerations: string[] = [];
  await context.route(`**/api/v1/admin/api-services/${id}/credentials`, async (route) => {
    regenerations.push(route.request().method());
    await route.continue();
  });
  await page.getByRole('button', { name: 'Regenerate Credentials' }).click();
  await page.getByRole('dialog', { name: 'Regenerate credentials?' }).getByRole('button', { name: 'Regenerate' }).dblclick();
  const secret = await page.getByRole('dialog', { name: 'New Credentials' }).getByLabel('Client Secret', { exact: true }).inputValue();
  expect(regenerations).toHaveLength(1);
  const token = await fetch(`${E2E_URL}/api/v1/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'none', client_id: clientId, client_secret: secret }) });
  expect((await token.json()).error, 'the secret shown authenticates').toBe('invalid_grant');
  await page.getByRole('dialog', { name: 'New Credentials' }).getByRole('button', { name: 'Close', exact: true }).click();

  // A slow re-fetch after the toggle: a second click must not toggle it back unseen.
  const toggles: string[] = [];
  await context.route(`**/api/v1/admin/api-services/toggle/${id}`, async (route) => {
    toggles.push(route.request().method());
    await route.continue();
  });
  await context.route(`**/api/v1/admin/api-services/${id}`, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });
  await page.getByRole('button', { name: 'Disable' }).dblclick();
  await expect(page.getByText('Inactive', { exact: true })).toBeVisible();
  await page.waitForTimeout(2_000); // the re-fetch has come back
  expect(toggles).toHaveLength(1);
  await expect(page.getByText('Inactive', { exact: true })).toBeVisible();

  // A failed toggle says why, and changes nothing shown.
  await context.unroute(`**/api/v1/admin/api-services/toggle/${id}`);
  await context.route(`**/api/v1/admin/api-services/toggle/${id}`, (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>' }));
  await page.getByRole('button', { name: 'Enable' }).click();
  await expect(page.getByRole('alert')).toHaveText('Unexpected error happened');
  await expect(page.getByText('Inactive', { exact: true })).toBeVisible();
  await context.unroute(`**/api/v1/admin/api-services/toggle/${id}`);
  await context.route(`**/api/v1/admin/api-services/toggle/${id}`, (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: 'Enable' }).click();
  await expect(page.getByRole('alert')).toHaveText('Home Guard cannot be reached. Check the connection and try again.');
  await checkScreen(page, 'admin-service-toggle-failed');
});

test('an administrator deletes a service once they confirm: it leaves the list, and its credentials authenticate nothing', async ({ page }) => {
  const name = `Retired ${Date.now().toString(36)}`;
  const { id, clientId, clientSecret } = await createService(E2E_ADMIN, { name, redirect_uris: ['https://retired.home.lan/callback'] });
  const authenticates = async () => {
    const answer = await fetch(`${E2E_URL}/api/v1/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'none', client_id: clientId, client_secret: clientSecret }) });
    return (await answer.json()).error !== 'invalid_client';
  };
  await page.goto(`/auth/login?from=${encodeURIComponent(`/admin/api-services/view/${id}`)}`);
  await signIn(page, E2E_ADMIN);
  const deleteButton = page.getByRole('main').getByRole('button', { name: 'Delete', exact: true });
  await deleteButton.click();
  const dialog = page.getByRole('dialog', { name: 'Delete this service?' });
  await expect(dialog).toContainText(`Everyone signed in to ${name} is signed out`);
  await checkScreen(page, 'admin-service-delete');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(await authenticates(), 'cancelled: nothing changed').toBe(true);

  await expect(dialog).toBeHidden();
  await deleteButton.click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/admin\/api-services$/);
  await expect(page.getByRole('heading', { name: 'API Services' })).toBeVisible();
  await expect(page.getByRole('link', { name })).toHaveCount(0);
  expect(await authenticates()).toBe(false);
  await page.goto(`/admin/api-services/view/${id}`);
  await expect(page.getByText('This service does not exist.')).toBeVisible();
});

test('Create clicked again after its answer was lost, and a reload, makes one service, whose secret is the one shown', async ({ page, context }) => {
  let sent = 0;
  await context.route('**/api/v1/admin/api-services', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    sent += 1;
    if (sent > 1) return route.continue();
    await route.fetch(); // the server makes the service; its answer never arrives
    await route.abort('internetdisconnected');
  });
  const name = await typeNewService(page, E2E_ADMIN, { name: 'Lost answer', description: 'Its first answer is lost', redirectUris: 'https://lost.home.lan/callback' });
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('alert')).toHaveText('Home Guard cannot be reached. Check the connection and try again.');
  // Reloaded, the page keeps what was typed and what was sent: the same values go with the same key.
  await page.reload();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(name);
  await page.getByRole('button', { name: 'Create' }).click();

  const modal = page.getByRole('dialog', { name: 'New Credentials' });
  const clientId = await modal.getByLabel('Client ID', { exact: true }).inputValue();
  const secret = await modal.getByLabel('Client Secret', { exact: true }).inputValue();
  await modal.getByRole('button', { name: 'Close', exact: true }).click();
  expect(sent).toBe(2);
  await expect(page.getByRole('row', { name: new RegExp(name) })).toHaveCount(1);
  // The secret shown works: the token endpoint takes it (the code is wrong, the client is not).
  const token = await fetch(`${E2E_URL}/api/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${btoa(`${clientId}:${secret}`)}` },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: 'no-such-code', redirect_uri: 'https://lost.home.lan/callback' }),
  });
  expect(((await token.json()) as { error: string }).error).toBe('invalid_grant');
});

test('what an administrator typed survives their session ending before Create: signed in again, it is back', async ({ page }) => {
  // An administrator of its own: ending its sessions leaves the shared one alone.
  const admin = newPerson('drafter');
  const created = await fetch(`${E2E_URL}/api/v1/admin/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${(await login(E2E_ADMIN)).access}` },
    body: JSON.stringify({ full_name: admin.name, email: admin.email, password: admin.password, is_admin: true }),
  });
  expect(created.status).toBe(200);
  await verifyThroughApi(admin);
  const name = await typeNewService(page, admin, { name: 'Draft', description: 'Typed before the session ended', redirectUris: 'https://draft.home.lan/callback' });
  await page.getByLabel('Enabled by default').uncheck();

  // Signed out meanwhile from another device ("Sign Out Other Devices"): Create meets a dead session.
  const elsewhere = await login(admin);
  expect((await fetch(`${E2E_URL}/api/v1/auth/sessions`, { method: 'DELETE', headers: { authorization: `Bearer ${elsewhere.access}` } })).status).toBe(200);
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await signIn(page, admin);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(name);
  await expect(page.getByLabel('Description')).toHaveValue('Typed before the session ended');
  await expect(page.getByLabel('Redirect URIs')).toHaveValue('https://draft.home.lan/callback');
  await expect(page.getByLabel('Enabled by default')).not.toBeChecked();
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('dialog', { name: 'New Credentials' }).getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('No');

  // Created, the draft is gone: the next form starts empty.
  await page.getByRole('link', { name: 'Add API Service' }).click();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Enabled by default')).toBeChecked();

  // Left for another page, what was typed is given up: opened again, the form starts empty.
  await page.getByLabel('Name', { exact: true }).fill('Given up');
  await page.getByRole('link', { name: 'Users', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  await page.goBack();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('');
});

test("an edit saved from a form opened before another administrator's edit is refused and says so; reloaded, the form shows theirs", async ({ page }) => {
  const service = await createService(E2E_ADMIN, { name: `Stale ${Date.now().toString(36)}`, redirect_uris: ['https://stale.home.lan/callback'] });
  await page.goto(`/auth/login?from=${encodeURIComponent(`/admin/api-services/edit/${service.id}`)}`);
  await signIn(page, E2E_ADMIN);
  // On a phone, where the form is longer than the screen and the answer appears above it.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByLabel('Description').fill('Renamed in a form opened too early');

  // Meanwhile another administrator makes the service ask for two-step sign-in.
  const headers = { authorization: `Bearer ${service.adminToken}`, 'content-type': 'application/json' };
  const now = await (await fetch(`${E2E_URL}/api/v1/admin/api-services/${service.id}`, { headers })).json();
  const strict = { name: now.name, description: now.description, redirect_uris: now.redirect_uris, scopes: now.scopes, require_two_step: true };
  expect((await fetch(`${E2E_URL}/api/v1/admin/api-services/${service.id}`, { method: 'PUT', headers, body: JSON.stringify(strict) })).status).toBe(200);

  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByRole('alert')).toContainText('Another administrator changed this service since you opened it');
  await expectInSight(page.getByRole('alert'));
  expect(await (await fetch(`${E2E_URL}/api/v1/admin/api-services/${service.id}`, { headers })).json()).toMatchObject({ description: now.description, require_two_step: true });
  // The draft kept with the page is of the service as it was: a reload drops it and shows theirs.
  await page.reload();
  await expect(page.getByLabel('Description')).toHaveValue(now.description);
  await expect(page.getByLabel('Require Two-Step Sign-In')).toBeChecked();
});

test('on a phone, and at 320 px (a desktop zoomed to 400 %), the admin lists fit the screen: a client ID or a long name breaks rather than running past its edge', async ({ page }) => {
  await createService(E2E_ADMIN, { name: `Phone ${Date.now().toString(36)}`, redirect_uris: ['https://phone.home.lan/callback'] });
  await page.goto('/auth/login?from=%2Fadmin%2Fapi-services');
  await signIn(page, E2E_ADMIN);
  const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  const lists = { 'API Services': '/admin/api-services', Users: '/admin/users', 'User Sessions': '/admin/user-sessions', 'Audit Log': '/admin/audit-log' };
  for (const [list, path] of Object.entries(lists)) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: list, exact: true })).toBeVisible();
    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: 800 });
      // Polled: the sidebar slides away as the width passes a phone's.
      await expect.poll(sideways, `${list} at ${width} px`).toBe(0);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }
});
