import { expect, test } from '@playwright/test';
import * as client from 'openid-client';
import { E2E_ADMIN } from './global-setup';
import { createService as createServiceThroughApi, E2E_URL, verifiedPerson } from './support/api';
import { discover, startCallbackServer } from './support/relying-party';
import { checkScreen, controlled, linesOf, signIn, signInToHome } from './support/ui';

// A service's sessions after the consent screen: in the admin area, and the service's sign-out.

let callback: string;
let closeCallback: () => Promise<void>;
test.beforeAll(async () => {
  ({ url: callback, close: closeCallback } = await startCallbackServer([]));
});
test.afterAll(() => closeCallback());

const createService = (fields: Record<string, unknown> = {}) => createServiceThroughApi(E2E_ADMIN, { redirect_uris: [callback], ...fields });

test('a service session appears in the admin area with its service, user and IP; revoking it kills its tokens', async ({ page, browser }) => {
  const serviceName = `Immich ${Date.now().toString(36)}`;
  // With an icon, which the admin's lists show beside the service's name (and axe checks).
  const service = await createService({ name: serviceName, icon_url: `${E2E_URL}/icons/icon-192.png` });
  const person = await verifiedPerson('svc');
  const config = await discover(service);
  const verifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(config, { redirect_uri: callback, scope: 'openid email', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
  await page.goto(url.href);
  await signIn(page, person);
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page.getByRole('heading', { name: 'Back at the service' })).toBeVisible();
  const tokens = await client.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: verifier });

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await admin.goto('/auth/login?from=%2Fadmin%2Fservice-sessions');
  await signIn(admin, E2E_ADMIN);
  await admin.getByLabel('Search').fill(person.email);
  await expect(admin).toHaveURL(/search=svc/);
  const row = admin.getByRole('row', { name: new RegExp(person.name) });
  await expect(row).toContainText('Immich');
  await expect(row).toContainText('127.0.0.1');
  await expect(row).toContainText('Active');
  await expect(row.locator('img[src$="icon-192.png"]')).toHaveJSProperty('complete', true);
  await checkScreen(admin, 'admin-service-sessions');
  await row.getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toContainText('Inactive');
  expect((await fetch(`${E2E_URL}/api/v1/oauth/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(401);

  // The service's name leads to the service, the person's to the person; Back returns to the lists.
  await row.getByRole('link', { name: serviceName }).click();
  await expect(admin).toHaveURL(/\/admin\/api-services\/view\/[^/]+$/);
  await expect(admin.getByRole('heading', { name: serviceName, exact: true })).toBeVisible();
  await admin.getByRole('link', { name: 'Back' }).click();
  await expect(admin).toHaveURL(/\/admin\/api-services$/);
  await admin.goBack();
  await admin.goBack();
  await expect(admin).toHaveURL(/\/admin\/service-sessions\?.*search=svc/);
  await row.getByRole('link', { name: person.name }).click();
  await expect(admin).toHaveURL(/\/admin\/users\/view\/[^/]+$/);
  await expect(admin.getByRole('heading', { name: person.name })).toBeVisible();
  await expect(admin.getByText(person.email)).toBeVisible();
  await adminContext.close();
});

test('a sign-out without an ID token asks first: staying keeps the account, and nothing claims it signed out', async ({ page }) => {
  const service = await createService({ name: 'Gitea' });
  const person = await verifiedPerson('stay');
  await signInToHome(page, person);

  await page.goto(`/signout?${new URLSearchParams({ client_id: service.clientId, post_logout_redirect_uri: callback, state: 'stay' })}`);
  await expect(page.getByRole('heading', { name: 'Sign out of Home Guard?' })).toBeVisible();
  await expect(page.getByText(person.email)).toBeVisible();
  await checkScreen(page, 'signout-ask');
  // On a phone both answers fit half the card on one line ("Stay signed / in" before).
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(async () => (await linesOf(page.getByRole('button', { name: 'Stay signed in' }).locator('.mantine-Button-label'))).length).toBe(1);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('button', { name: 'Stay signed in' }).click();
  await expect(page.getByRole('heading', { name: 'Back at the service' })).toBeVisible();
  expect(new URL(page.url()).searchParams.get('state')).toBe('stay');
  await page.goto('/');
  await expect(page.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible();

  // No service named at all: nowhere to return to, so the answer is given here.
  await page.goto('/signout');
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page.getByRole('heading', { name: 'You have signed out' })).toBeVisible();
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
});

test('offline, or answered 502 by the proxy, a sign-in request and a sign-out wait for the connection, then go on', async ({ page, context }) => {
  const service = await createService({ name: 'Paperless' });
  const person = await verifiedPerson('waits');
  await signInToHome(page, person);
  await controlled(page);

  await context.setOffline(true);
  await page.goto(`/auth?${new URLSearchParams({ client_id: service.clientId, redirect_uri: callback, response_type: 'code', scope: 'openid', state: 'later' })}`);
  await expect(page.getByRole('heading', { name: 'Home Guard cannot be reached' })).toBeVisible();
  await expect(page.getByText('The sign-in request is kept: it goes on as soon as the connection is back.')).toBeVisible();
  await expect(page.getByText(/Check the connection/), 'the title is not said twice').toHaveCount(0);
  await checkScreen(page, 'consent-offline');
  await context.setOffline(false);
  await expect(page.getByText('Are you sure you want to trust Paperless?')).toBeVisible();

  // The proxy in front answers 502 while Home Guard restarts: the same wait, not a refusal.
  let restarting = true;
  await context.route('**/api/v1/oauth/authorize?*', (route) => (restarting ? route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body><h1>502 Bad Gateway</h1></body></html>' }) : route.continue()));
  await page.goto(`/auth?${new URLSearchParams({ client_id: service.clientId, redirect_uri: callback, response_type: 'code', scope: 'openid', state: 'restart' })}`);
  await expect(page.getByRole('heading', { name: 'Home Guard cannot be reached' })).toBeVisible();
  await expect(page.getByText('Home Guard did not answer as it should (HTTP 502).', { exact: false })).toBeVisible();
  restarting = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByText('Are you sure you want to trust Paperless?')).toBeVisible();
  await context.unroute('**/api/v1/oauth/authorize?*');

  await context.setOffline(true);
  await page.goto(`/signout?${new URLSearchParams({ client_id: service.clientId, post_logout_redirect_uri: callback, state: 'bye' })}`);
  await expect(page.getByRole('heading', { name: 'Signing out did not finish' })).toBeVisible();
  await expect(page.getByText('This device is still signed in.')).toBeVisible();
  await context.setOffline(false);
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page.getByRole('heading', { name: 'Back at the service' })).toBeVisible();
  expect(new URL(page.url()).searchParams.get('state')).toBe('bye');
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
});
