import { expect, test } from '@playwright/test';
import * as client from 'openid-client';
import { totpCode, totpStep } from '../../server/two-step/totp';
import { E2E_ADMIN } from './global-setup';
import { createService as createServiceThroughApi, E2E_URL, login, newPerson, register, turnOnTwoStep, verifiedPerson, type Person } from './support/api';
import { discover, startCallbackServer, startPopupRelyingParty } from './support/relying-party';
import { checkScreen, linesOf, shownStatus, signIn, signInToHome } from './support/ui';

let callback: string;
let closeCallback: () => Promise<void>;
const received: URL[] = [];
test.beforeAll(async () => {
  ({ url: callback, close: closeCallback } = await startCallbackServer(received));
});
test.afterAll(() => closeCallback());

/** The code an authenticator app holding `secret` shows now, or `steps` time steps from now. */
const appCode = (secret: string, steps = 0) => totpCode(secret, totpStep(Date.now()) + steps);
const createService = (fields: Record<string, unknown> = {}) => createServiceThroughApi(E2E_ADMIN, { redirect_uris: [callback], ...fields });

/** An ID token of `someone` for the service, got as the service would, through the API (no PKCE: a confidential client). */
async function idTokenFor(someone: Person, service: { clientId: string; clientSecret: string }): Promise<string> {
  const { access } = await login(someone);
  const answer = await fetch(`${E2E_URL}/api/v1/oauth/code`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${access}` }, body: JSON.stringify({ client_id: service.clientId, redirect_uri: callback, response_type: 'code', scope: 'openid' }) });
  const { code } = (await answer.json()) as { code: string };
  const form = { grant_type: 'authorization_code', code, redirect_uri: callback, client_id: service.clientId, client_secret: service.clientSecret };
  const tokens = await fetch(`${E2E_URL}/api/v1/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
  return ((await tokens.json()) as { id_token: string }).id_token;
}

test('a real relying party signs a person in through the consent screen, then refreshes, revokes and logs out', async ({ page }) => {
  const service = await createService();
  const person = await verifiedPerson('oidc');
  const config = await discover(service);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, { redirect_uri: callback, scope: 'openid email profile offline_access', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state, nonce });

  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  await page.goto(url.href);
  await signIn(page, person); // signed out: sign-in first, then back to the same request
  await expect(page.getByText('Are you sure you want to trust Grafana?')).toBeVisible();
  expect(consoleErrors, 'a sign-in that worked logs no failure').toEqual([]);
  await expect(page.getByText(person.email)).toBeVisible();
  for (const description of ['Access your account id and use it', 'View your email address', 'View your profile image']) await expect(page.getByText(description)).toBeVisible();
  await checkScreen(page, 'consent');
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page.getByRole('heading', { name: 'Back at the service' })).toBeVisible();

  const returned = new URL(page.url());
  expect(returned.searchParams.get('state')).toBe(state);
  expect(received.filter((u) => u.pathname === '/callback').at(-1)?.searchParams.get('code')).toBe(returned.searchParams.get('code'));
  const tokens = await client.authorizationCodeGrant(config, returned, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true });
  const claims = tokens.claims()!;
  expect(claims).toMatchObject({ iss: E2E_URL, aud: service.clientId, email: person.email, name: person.name });
  expect((await client.fetchUserInfo(config, tokens.access_token, claims.sub)).email).toBe(person.email);
  const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
  await client.tokenRevocation(config, refreshed.access_token);
  expect((await fetch(`${E2E_URL}/api/v1/oauth/userinfo`, { headers: { authorization: `Bearer ${refreshed.access_token}` } })).status).toBe(401);

  // RP-initiated logout: back to the service with its state, the service session ended, the account gone from this device.
  const third = await client.refreshTokenGrant(config, refreshed.refresh_token!);
  await page.goto(client.buildEndSessionUrl(config, { id_token_hint: third.id_token!, post_logout_redirect_uri: callback, state: 'bye' }).href);
  await expect(page.getByRole('heading', { name: 'Back at the service' })).toBeVisible();
  expect(new URL(page.url()).searchParams.get('state')).toBe('bye');
  expect((await fetch(`${E2E_URL}/api/v1/oauth/userinfo`, { headers: { authorization: `Bearer ${third.access_token}` } })).status).toBe(401);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
});

test('prompt=select_account shows the account picker first (and Use another account shows it again); the account picked is the one the service gets', async ({ page }) => {
  const service = await createService({ name: 'Mealie' });
  // 'p': an address whose part before the @ fits a phone's account line, though the whole does not.
  const [first, second] = [await verifiedPerson('p'), await verifiedPerson('other')];
  await signInToHome(page, first);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Switch account' }).click();
  await page.getByText('Add new account').click();
  await signIn(page, second);
  await expect(page.getByRole('heading', { name: `Welcome, ${second.name}` })).toBeVisible();

  const config = await discover(service);
  const verifier = client.randomPKCECodeVerifier();
  // The hint names the active account; the person picks the other one, and that choice stands.
  const url = client.buildAuthorizationUrl(config, { redirect_uri: callback, scope: 'openid email', prompt: 'select_account', login_hint: second.email, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'pick' });
  await page.goto(url.href);
  await expect(page.getByRole('heading', { name: 'Select Account' })).toBeVisible();
  await page.getByRole('button', { name: new RegExp(first.email) }).click();
  await expect(page.getByText('Are you sure you want to trust Mealie?')).toBeVisible();
  await expect(page.getByText(first.email)).toBeVisible();
  // On a phone: the address whole (its end tells similar accounts apart), the switch big enough to tap.
  await page.setViewportSize({ width: 360, height: 740 });
  expect(await page.getByText(first.email).evaluate((text) => text.scrollWidth <= text.clientWidth && getComputedStyle(text).textOverflow !== 'ellipsis')).toBe(true);
  // The name whole too: a long one wraps ("Bob Buil…" hid who it is).
  expect(await page.getByText(first.name, { exact: true }).evaluate((text) => getComputedStyle(text).textOverflow)).not.toBe('ellipsis');
  // Too long for the line at 390 px, it wraps after the @ or before a dot, not inside a word ("…@e2e.t / est" before).
  await page.setViewportSize({ width: 390, height: 844 });
  const wrapsBetweenWords = (lines: string[]) => lines.length > 1 && lines.slice(0, -1).every((line, at) => line.endsWith('@') || lines[at + 1]!.startsWith('.'));
  await expect.poll(async () => wrapsBetweenWords(await linesOf(page.getByText(first.email)))).toBe(true);
  await page.setViewportSize({ width: 360, height: 740 });
  const switchBox = (await page.getByRole('button', { name: 'Use another account' }).boundingBox())!;
  expect(Math.min(switchBox.width, switchBox.height)).toBeGreaterThanOrEqual(44);
  // The consent screen's own control goes back to the picker; both accounts stay saved.
  await page.getByRole('button', { name: 'Use another account' }).click();
  await expect(page.getByRole('heading', { name: 'Select Account' })).toBeVisible();
  await expect(page.getByRole('button', { name: new RegExp(second.email) })).toBeVisible();
  await page.getByRole('button', { name: new RegExp(first.email) }).click();
  await expect(page.getByText(first.email)).toBeVisible();
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page.getByRole('heading', { name: 'Back at the service' })).toBeVisible();
  const tokens = await client.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: verifier, expectedState: 'pick', idTokenExpected: true });
  expect(tokens.claims()!.email).toBe(first.email);
});

test('prompt=login asks a signed-in person for the password again, and the service sees the new sign-in time', async ({ page }) => {
  const service = await createService({ name: 'Outline' });
  const person = await verifiedPerson('again');
  await signInToHome(page, person);
  const config = await discover(service);
  const verifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(config, { redirect_uri: callback, scope: 'openid email', prompt: 'login', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'again' });
  await page.waitForTimeout(1_100); // the new sign-in's second differs from the first's
  const asked = Math.floor(Date.now() / 1000);
  await page.goto(url.href);
  await signIn(page, person);
  await expect(page.getByText('Are you sure you want to trust Outline?')).toBeVisible();
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page.getByRole('heading', { name: 'Back at the service' })).toBeVisible();
  const tokens = await client.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: verifier, expectedState: 'again', idTokenExpected: true });
  expect(tokens.claims()!.auth_time).toBeGreaterThanOrEqual(asked);

  // Signed out, the sign-in the request starts with is the fresh one: asked once, not twice.
  // (Still signed in to Outline, the person is not asked to approve it again either.)
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await page.goto(client.buildAuthorizationUrl(config, { redirect_uri: callback, scope: 'openid email', prompt: 'login', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'signed-out' }).href);
  await signIn(page, person);
  await expect(page.getByRole('heading', { name: 'Back at the service' })).toBeVisible();
  expect(new URL(page.url()).searchParams.get('state')).toBe('signed-out');
});

test('with max_age, a consent screen read for longer than it allows asks for the password again at Allow, instead of failing the service', async ({ page }) => {
  const service = await createService({ name: 'Mealie' });
  const person = await verifiedPerson('slowreader');
  await signInToHome(page, person);
  const config = await discover(service);
  const verifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(config, { redirect_uri: callback, scope: 'openid email', max_age: '5', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'slow' });
  await page.waitForTimeout(5_500); // the sign-in to Home is older than max_age now
  await page.goto(url.href);
  await signIn(page, person); // the fresh sign-in max_age asks for
  await expect(page.getByText('Are you sure you want to trust Mealie?')).toBeVisible();
  await page.waitForTimeout(5_500); // and the screen read for longer than max_age
  await page.getByRole('button', { name: 'Allow' }).click();
  await signIn(page, person);
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page.getByRole('heading', { name: 'Back at the service' })).toBeVisible();
  const tokens = await client.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: verifier, expectedState: 'slow', idTokenExpected: true, maxAge: 5 });
  expect(tokens.claims()!.email).toBe(person.email);
});

test('a service the person allowed asks no more, even after its own sign-out; signing out of it on Personal Info makes it ask again', async ({ page }) => {
  const service = await createService({ name: 'Gitea' });
  const person = await verifiedPerson('remember');
  const config = await discover(service);
  const visit = async (state: string, extra: Record<string, string> = {}) => {
    const verifier = client.randomPKCECodeVerifier();
    await page.goto(client.buildAuthorizationUrl(config, { redirect_uri: callback, scope: 'openid email', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state, ...extra }).href);
    return verifier;
  };
  const backAtTheService = async (verifier: string, state: string) => {
    await expect(page.getByRole('heading', { name: 'Back at the service' })).toBeVisible();
    return client.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: verifier, expectedState: state, idTokenExpected: true });
  };
  const consent = page.getByText('Are you sure you want to trust Gitea?');

  const first = await visit('first');
  await signIn(page, person);
  await consent.waitFor();
  await page.getByRole('button', { name: 'Allow' }).click();
  await backAtTheService(first, 'first');

  // Approved and signed in there: straight back, with nobody clicking Allow.
  const second = await visit('second');
  expect((await backAtTheService(second, 'second')).claims()!.email).toBe(person.email);

  // The service may still insist.
  const insisted = await visit('insist', { prompt: 'consent' });
  await consent.waitFor();
  await page.getByRole('button', { name: 'Allow' }).click();
  const tokens = await backAtTheService(insisted, 'insist');

  // The service's own sign-out ends its session and this device's; the approval stays.
  await page.goto(client.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: callback, state: 'bye' }).href);
  await expect(page.getByRole('heading', { name: 'Back at the service' })).toBeVisible();
  const again = await visit('again');
  await signIn(page, person);
  expect((await backAtTheService(again, 'again')).claims()!.email).toBe(person.email);

  // Asking for someone else (with their ID token as the hint), it is not answered for this person
  // without a screen that says so; Allow still goes on as the person signed in.
  const hinted = await visit('hinted', { id_token_hint: await idTokenFor(await verifiedPerson('hinted'), service) });
  await consent.waitFor();
  await expect(shownStatus(page)).toHaveText('Gitea asked for a different account. Allow goes on with the one below; the button beside it switches to another.');
  await checkScreen(page, 'consent-other-account-hinted');
  await page.getByRole('button', { name: 'Allow' }).click();
  expect((await backAtTheService(hinted, 'hinted')).claims()!.email).toBe(person.email);

  await page.goto('/personal-info');
  const card = page.locator('.mantine-Paper-root', { has: page.getByRole('heading', { name: 'Services' }) });
  await card.getByRole('button', { name: 'Sign out Gitea' }).click();
  await expect(shownStatus(card)).toHaveText('You are signed out of Gitea.');
  const third = await visit('third');
  await consent.waitFor();
  await page.getByRole('button', { name: 'Allow' }).click();
  await backAtTheService(third, 'third');
});

test('a service open only to some groups tells anyone else on the consent screen, and Cancel goes back', async ({ page }) => {
  const service = await createService({ name: 'Family Photos', allowed_groups: ['family'] });
  const person = await verifiedPerson('outsider');
  await page.goto(`/auth?${new URLSearchParams({ client_id: service.clientId, redirect_uri: callback, response_type: 'code', scope: 'openid', state: 'outside' })}`);
  await signIn(page, person);
  await expect(page.getByText('Are you sure you want to trust Family Photos?')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(/Family Photos is open only to some groups, and your account is in none of them; an administrator can add you/);
  await expect(page.getByRole('button', { name: 'Allow' })).toBeDisabled();
  await checkScreen(page, 'consent-not-in-group');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('heading', { name: 'Back at the service' })).toBeVisible();
  expect(new URL(page.url()).searchParams.get('error')).toBe('access_denied');
});

test('a service that asks for two-step sign-in says how on the consent screen, and lets in a sign-in made with a code', async ({ page, browser }) => {
  const service = await createService({ name: 'Vault', require_two_step: true });
  const person = await verifiedPerson('vault');
  const request = `/auth?${new URLSearchParams({ client_id: service.clientId, redirect_uri: callback, response_type: 'code', scope: 'openid', state: 'two-step' })}`;
  await page.goto(request);
  await signIn(page, person);
  await expect(page.getByText('Are you sure you want to trust Vault?')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(/Vault asks for two-step sign-in: turn it on under Personal Info, then sign out and sign in again/);
  await expect(page.getByRole('button', { name: 'Allow' })).toBeDisabled();
  await checkScreen(page, 'consent-two-step-required');

  // Turned on, and signed in on another device with the app's code: let in.
  let secret = '';
  await turnOnTwoStep(person, (shown) => ((secret = shown), appCode(shown)));
  const context = await browser.newContext();
  const other = await context.newPage();
  await other.goto(request);
  await signIn(other, person);
  await other.getByLabel('Authentication code').fill(appCode(secret, 1));
  await other.getByRole('button', { name: 'Log In' }).click();
  await expect(other.getByText('Are you sure you want to trust Vault?')).toBeVisible();
  await other.getByRole('button', { name: 'Allow' }).click();
  await expect(other.getByRole('heading', { name: 'Back at the service' })).toBeVisible();
  expect(new URL(other.url()).searchParams.get('code')).toBeTruthy();
  await context.close();
});

test('an unregistered redirect_uri shows an error page and is never navigated to', async ({ page }) => {
  const service = await createService({ name: 'Immich' });
  const visited: string[] = [];
  page.on('request', (request) => visited.push(request.url()));
  await page.goto(`/auth?${new URLSearchParams({ client_id: service.clientId, redirect_uri: 'https://evil.example/callback', response_type: 'code', scope: 'openid', state: 'x' })}`);
  await expect(page.getByRole('heading', { name: 'This sign-in request cannot be used' })).toBeVisible();
  await expect(page.getByText('redirect_uri is not registered for this service')).toBeVisible();
  await page.waitForTimeout(500);
  expect(new URL(page.url()).host).toBe('127.0.0.1:8181');
  expect(visited.filter((url) => new URL(url).host === 'evil.example')).toEqual([]);
  await checkScreen(page, 'authorization-error');
});

test('Cancel goes back with access_denied; a disabled service shows the error page', async ({ page }) => {
  const service = await createService({ name: 'Nextcloud' });
  const person = await verifiedPerson('cancel');
  const params = new URLSearchParams({ client_id: service.clientId, redirect_uri: callback, response_type: 'code', scope: 'openid', state: 'keep-me' });
  await page.goto(`/auth?${params}`);
  await signIn(page, person);
  await expect(page.getByText('Are you sure you want to trust Nextcloud?')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('heading', { name: 'Back at the service' })).toBeVisible();
  const back = new URL(page.url());
  expect(back.searchParams.get('error')).toBe('access_denied');
  expect(back.searchParams.get('state')).toBe('keep-me');
  expect(back.searchParams.get('iss')).toBe(E2E_URL);

  await fetch(`${E2E_URL}/api/v1/admin/api-services/toggle/${service.id}`, { method: 'PATCH', headers: { authorization: `Bearer ${service.adminToken}` } });
  await page.goto(`/auth?${params}`);
  await expect(page.getByRole('heading', { name: 'This sign-in request cannot be used' })).toBeVisible();
  await expect(page.getByText('This service is disabled')).toBeVisible();
});

test('prompt=none shows no page: an account still to verify and a repeated parameter go back to the service with their errors', async ({ page }) => {
  const service = await createService({ name: 'Paperless' });
  const person = newPerson('silent');
  await register(person);
  await page.goto('/auth/login');
  await signIn(page, person);
  await expect(page).toHaveURL(/\/verify/);
  const visited: string[] = [];
  page.on('framenavigated', (frame) => frame === page.mainFrame() && visited.push(new URL(frame.url()).pathname));

  const params = { client_id: service.clientId, redirect_uri: callback, response_type: 'code', scope: 'openid', state: 'quiet' };
  await page.goto(`/auth?${new URLSearchParams({ ...params, prompt: 'none' })}`);
  await expect(page.getByRole('heading', { name: 'Back at the service' })).toBeVisible();
  expect(Object.fromEntries(new URL(page.url()).searchParams)).toMatchObject({ error: 'interaction_required', state: 'quiet', iss: E2E_URL });
  expect(visited).not.toContain('/verify');

  // The router keeps the first of a repeated parameter; the request is refused all the same.
  await page.goto(`/auth?${new URLSearchParams(params)}&scope=openid%20email`);
  await expect(page.getByRole('heading', { name: 'Back at the service' })).toBeVisible();
  expect(Object.fromEntries(new URL(page.url()).searchParams)).toMatchObject({ error: 'invalid_request', error_description: 'The scope parameter is repeated', state: 'quiet' });
});

test("a mobile app's own scheme: the tab says the sign-in went to the app, and the code it carries works", async ({ page }) => {
  const APP_CALLBACK = 'app.immich:///oauth-callback';
  const service = await createService({ name: 'Immich', redirect_uris: [APP_CALLBACK] });
  const person = await verifiedPerson('mobile');
  const config = await discover(service);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, { redirect_uri: APP_CALLBACK, scope: 'openid email', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state });
  await page.goto(url.href);
  await signIn(page, person);
  await page.getByRole('button', { name: 'Allow' }).click();
  // No app handles the scheme in this browser: the tab stays, and says where the sign-in went.
  await expect(page.getByRole('heading', { name: 'Sent to Immich' })).toBeVisible();
  await expect(page.getByText('Home Guard handed the sign-in to the Immich app. You can close this tab.')).toBeVisible();
  await checkScreen(page, 'consent-handed-to-app');
  const handedOff = new URL((await page.getByRole('link', { name: 'Open Immich' }).getAttribute('href'))!);
  expect(handedOff.href.startsWith(`${APP_CALLBACK}?`)).toBe(true);
  const tokens = await client.authorizationCodeGrant(config, handedOff, { pkceCodeVerifier: verifier, expectedState: state, idTokenExpected: true });
  expect(tokens.claims()).toMatchObject({ aud: service.clientId, email: person.email });

  // Signing out from the app and back to its scheme: the tab says it is done, not "Signing out..." for ever.
  await page.goto(client.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: APP_CALLBACK, state: 'bye' }).href);
  await expect(page.getByRole('heading', { name: 'You have signed out' })).toBeVisible();
  expect((await fetch(`${E2E_URL}/api/v1/oauth/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(401);

  // Both ends are in the person's recent activity: the app's session, and Home Guard on this device.
  // In a new tab: headless Chromium drops mouse input to a tab whose launch of an app was refused.
  const home = await page.context().newPage();
  await home.goto('/personal-info');
  await signIn(home, person);
  const activity = home.getByRole('list', { name: 'Recent activity' });
  await expect(activity.getByText('Signed out of Immich')).toBeVisible();
  await expect(activity.getByText('Signed out', { exact: true })).toBeVisible();
  await checkScreen(home, 'personal-info-activity-after-signing-out');
});

test('a parameter longer than the server takes is named on the error page, not mistaken for a missing client_id', async ({ page }) => {
  const service = await createService({ name: 'Immich' });
  await page.goto(`/auth?${new URLSearchParams({ client_id: service.clientId, redirect_uri: callback, response_type: 'code', scope: 'openid', nonce: 'n'.repeat(501) })}`);
  await expect(page.getByRole('heading', { name: 'This sign-in request cannot be used' })).toBeVisible();
  await expect(page.getByText('client_id is missing')).toHaveCount(0);
  await expect(page.getByText('nonce: must be at most 500 characters', { exact: true })).toBeVisible();
});

test('a service that signs in in a popup gets the answer in the window that opened it: no page of the sign-in cuts the popup off', async ({ page }) => {
  const service = await startPopupRelyingParty();
  try {
    const registered = await createServiceThroughApi(E2E_ADMIN, { name: 'Popup app', redirect_uris: [service.callback] });
    const person = await verifiedPerson('popup');
    const auth = `${E2E_URL}/auth?${new URLSearchParams({ client_id: registered.clientId, redirect_uri: service.callback, response_type: 'code', scope: 'openid', state: 'popup-state' })}`;
    await page.goto(service.start(auth));
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Sign in with Home Guard' }).click()]);
    await signIn(popup, person); // signed out: Sign In, then the consent screen, all in the popup
    await popup.getByRole('button', { name: 'Allow' }).click();
    await expect(shownStatus(page)).toHaveText(/^Signed in: \?code=[^&]+&state=popup-state&iss=/);
  } finally {
    await service.close();
  }
});

test('prompt=none whose code request gets no answer says so and goes on when asked, instead of a spinner for ever', async ({ page }) => {
  const service = await createService({ name: 'Silent app' });
  const person = await verifiedPerson('silent');
  await signInToHome(page, person);
  await page.context().route('**/api/v1/oauth/code', (route) => route.abort('internetdisconnected'));
  await page.goto(`/auth?${new URLSearchParams({ client_id: service.clientId, redirect_uri: callback, response_type: 'code', scope: 'openid', state: 'quiet', prompt: 'none' })}`);
  await expect(page.getByRole('heading', { name: 'Home Guard cannot be reached' })).toBeVisible();
  await page.context().unroute('**/api/v1/oauth/code');
  await page.getByRole('button', { name: 'Try again' }).click();
  // Never approved: back to the service with consent_required, as prompt=none asks.
  await expect(page.getByRole('heading', { name: 'Back at the service' })).toBeVisible();
  expect(Object.fromEntries(new URL(page.url()).searchParams)).toMatchObject({ error: 'consent_required', state: 'quiet' });
});
