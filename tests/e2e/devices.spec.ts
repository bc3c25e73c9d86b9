import { expect, test } from '@playwright/test';
import { E2E_ADMIN } from './global-setup';
import { createService, E2E_URL, login, verifiedPerson } from './support/api';
import { addAccount, checkScreen, recordStatusMessages, shownStatus, signInToHome, statusMessagesAsTheyCame, statusRegionsNow } from './support/ui';

const FIREFOX_ON_ANDROID = 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0';

test('a person sees where they are signed in on Personal Info and signs out a phone they do not recognise', async ({ page, browser }) => {
  const person = await verifiedPerson('devices');
  const partner = await verifiedPerson('devices-partner');
  const phoneContext = await browser.newContext({ userAgent: FIREFOX_ON_ANDROID });
  const phone = await phoneContext.newPage();
  // A shared phone: the partner's account is saved on it too.
  await signInToHome(phone, partner);
  await addAccount(phone, person);
  await signInToHome(page, person);

  await page.getByRole('link', { name: 'Personal Info' }).first().click();
  const card = page.locator('.mantine-Paper-root', { has: page.getByRole('heading', { name: 'Devices' }) });
  await expect(card.getByText('This device')).toBeVisible();
  await expect(card.getByText('Active now')).toBeVisible();
  const stranger = card.getByRole('button', { name: 'Sign out Android 14, Mobile Firefox 133.0' });
  await expect(stranger).toBeVisible();
  await expect(card.getByText(/^127\.0\.0\.1 · Last active /).first()).toBeVisible();
  // Two devices of one kind differ by where and when: the button says that too.
  await expect(stranger).toHaveAccessibleName(/^Sign out Android 14, Mobile Firefox 133\.0, 127\.0\.0\.1, Last active \w{3} \d+, \d{4}, \d+:\d\d [AP]M$/);
  await checkScreen(page, 'personal-info-devices');

  await stranger.click();
  await expect(shownStatus(card)).toHaveText('Android 14, Mobile Firefox 133.0 is signed out.');
  await expect(stranger).toBeHidden();
  await expect(card.getByText('This device')).toBeVisible();
  // Its button gone, focus stays in the list (where its message is), not back at the top of the page.
  await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.mantine-Paper-root')?.querySelector('h2')?.textContent)).toBe('Devices');

  // The phone goes to its other account's picker, which says whose session ended; Sign In then has the address ready.
  await recordStatusMessages(phone);
  await phone.reload();
  await expect(phone.getByRole('heading', { name: 'Select Account' })).toBeVisible();
  await expect(shownStatus(phone)).toHaveText(`You were signed out of ${person.email}. Choose an account, or add it again.`);
  const saved = phone.getByRole('list', { name: 'Saved accounts' });
  await expect(saved.getByText(partner.email)).toBeVisible();
  await expect(saved.getByText(person.email)).toBeHidden();
  await checkScreen(phone, 'select-account-session-ended');
  await phone.getByRole('link', { name: 'Add new account' }).click();
  await expect(shownStatus(phone)).toHaveText(`You were signed out of ${person.email}. Sign in again to go on.`);
  await expect(phone.getByLabel('Email')).toHaveValue(person.email);
  // Each was there as its page opened: kept from screen readers at first, then given to them in
  // the region already there, so that it is read out.
  await expect(shownStatus(phone).locator('[aria-hidden="true"]')).toHaveCount(0);
  const sessionEnded = (await statusMessagesAsTheyCame(phone)).filter(({ text }) => text.startsWith('You were signed out'));
  expect(sessionEnded).toEqual([
    { text: `You were signed out of ${person.email}. Choose an account, or add it again.`, hiddenAtFirst: true },
    { text: `You were signed out of ${person.email}. Sign in again to go on.`, hiddenAtFirst: true },
  ]);
  await phoneContext.close();
});

test('a person signs out every other device at once, and only this one stays signed in', async ({ page, browser }) => {
  const person = await verifiedPerson('others');
  const phoneContext = await browser.newContext({ userAgent: FIREFOX_ON_ANDROID });
  const phone = await phoneContext.newPage();
  await signInToHome(phone, person);
  const script = await login(person); // a third device, signed in through the API
  await signInToHome(page, person);

  await page.getByRole('link', { name: 'Personal Info' }).first().click();
  const card = page.locator('.mantine-Paper-root', { has: page.getByRole('heading', { name: 'Devices' }) });
  // The phone, the script, and the sign-in that verified the account.
  await expect(card.getByRole('button', { name: /^Sign out / })).toHaveCount(3);
  await checkScreen(page, 'personal-info-devices-others');
  // At 320 px with WCAG 1.4.12's text spacing, a label too long for its button wraps, not cut off.
  await page.setViewportSize({ width: 320, height: 640 });
  await page.addStyleTag({ content: '* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; }' });
  const label = card.getByRole('button', { name: 'Sign Out Other Devices' }).locator('.mantine-Button-label');
  // Polled: the sidebar slides away after the resize, and the card with it (CI 311 measured mid-slide).
  await expect.poll(() => label.evaluate((text) => text.scrollWidth <= text.clientWidth && text.getBoundingClientRect().right <= window.innerWidth)).toBe(true);
  const said = await statusRegionsNow(card);
  await card.getByRole('button', { name: 'Sign Out Other Devices' }).click();
  await expect(said).toHaveText('3 other devices are signed out.');
  await expect(said.getByRole('alert'), 'said politely, not as an alert').toHaveCount(0);
  await expect(card.getByRole('button', { name: /^Sign out / })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Sign Out Other Devices' })).toBeHidden();
  await expect(card.getByText('This device')).toBeVisible();

  expect((await fetch(`${E2E_URL}/api/v1/auth/refresh`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${script.refresh}` }, body: '{}' })).status).toBe(401);
  await phone.reload();
  await expect(shownStatus(phone)).toHaveText(`You were signed out of ${person.email}. Sign in again to go on.`);
  await phoneContext.close();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Personal Info' })).toBeVisible();
  await expect(card.getByText('This device')).toBeVisible();
});

test("a page follows an account switch made in another tab: it shows the new account's own devices, not the old one's under the new name", async ({ page, context }) => {
  const first = await verifiedPerson('tab-first');
  const second = await verifiedPerson('tab-second');
  // The first has two sign-ins more elsewhere: its list is longer than the second's.
  await login(first);
  await login(first);
  await signInToHome(page, second);
  await addAccount(page, first);
  await page.getByRole('link', { name: 'Personal Info' }).first().click();
  const card = page.locator('.mantine-Paper-root', { has: page.getByRole('heading', { name: 'Devices' }) });
  await expect(card.getByRole('button', { name: /^Sign out / })).toHaveCount(3);

  // Another tab of this browser is asked by a service to sign in as the second account.
  const service = await createService(E2E_ADMIN, { name: 'Hinted', redirect_uris: ['http://127.0.0.1:9/callback'] });
  const other = await context.newPage();
  await other.goto(`/auth?${new URLSearchParams({ client_id: service.clientId, redirect_uri: 'http://127.0.0.1:9/callback', response_type: 'code', scope: 'openid', state: 'hint', login_hint: second.email })}`);
  await expect(other.getByText(second.email)).toBeVisible();
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('menu')).toContainText(second.email);
  await page.keyboard.press('Escape');
  await expect(card.getByRole('button', { name: /^Sign out / })).toHaveCount(1);
});

test('signing in again as an account this device already holds ends its earlier session: no phantom device is left', async ({ page }) => {
  const person = await verifiedPerson('again');
  await signInToHome(page, person);
  await addAccount(page, person);

  await page.getByRole('link', { name: 'Personal Info' }).first().click();
  const card = page.locator('.mantine-Paper-root', { has: page.getByRole('heading', { name: 'Devices' }) });
  await expect(card.getByText('This device')).toBeVisible();
  // Only the sign-in that verified the account; the first sign-in on this browser is over.
  await expect(card.getByRole('button', { name: /^Sign out / })).toHaveCount(1);
});

test('a person signs out of a service from Personal Info: its tokens stop working, other services stay; an approval alone can be removed', async ({ page }) => {
  const person = await verifiedPerson('services');
  const callback = 'https://apps.e2e.test/callback';
  const names = { wiki: `Wiki ${Date.now().toString(36)}`, photos: `Photos ${Date.now().toString(36)}` };
  const wiki = await createService(E2E_ADMIN, { name: names.wiki, redirect_uris: [callback] });
  const photos = await createService(E2E_ADMIN, { name: names.photos, redirect_uris: [callback] });
  type Service = typeof wiki;
  const tokenRequest = (service: Service, form: Record<string, string>) =>
    fetch(`${E2E_URL}/api/v1/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: service.clientId, client_secret: service.clientSecret, ...form }) }).then((r) => r.json() as Promise<Record<string, string>>);
  // Each service signs in as its relying party would: a code for the person, exchanged for tokens.
  const { access } = await login(person);
  const signInTo = async (service: Service) => {
    const answer = await fetch(`${E2E_URL}/api/v1/oauth/code`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${access}` }, body: JSON.stringify({ client_id: service.clientId, redirect_uri: callback, response_type: 'code', scope: 'openid offline_access' }) });
    const { code } = (await answer.json()) as { code: string };
    return tokenRequest(service, { grant_type: 'authorization_code', code, redirect_uri: callback });
  };
  const wikiTokens = await signInTo(wiki);
  await signInTo(wiki);
  const photoTokens = await signInTo(photos);

  await signInToHome(page, person);
  await page.getByRole('link', { name: 'Personal Info' }).first().click();
  const card = page.locator('.mantine-Paper-root', { has: page.getByRole('heading', { name: 'Services' }) });
  await expect(card.getByText(/^2 sessions · Last active /)).toBeVisible();
  await expect(card.getByText(/^1 session · Last active /)).toBeVisible();
  await checkScreen(page, 'personal-info-services');

  await card.getByRole('button', { name: `Sign out ${names.wiki}` }).click();
  await expect(shownStatus(card)).toHaveText(`You are signed out of ${names.wiki}.`);
  await expect(card.getByText(names.wiki, { exact: true })).toBeHidden();
  await expect(card.getByText(names.photos, { exact: true })).toBeVisible();
  expect((await tokenRequest(wiki, { grant_type: 'refresh_token', refresh_token: wikiTokens.refresh_token! })).error).toBe('invalid_grant');
  expect((await tokenRequest(photos, { grant_type: 'refresh_token', refresh_token: photoTokens.refresh_token! })).access_token).toBeTruthy();

  // The service's own sign-out ends its session, not the person's approval: listed still, to remove.
  const endSession = await fetch(`${E2E_URL}/api/v1/oauth/end-session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id_token_hint: photoTokens.id_token }) });
  expect(endSession.status).toBe(200);
  await page.reload();
  await expect(card.getByText(/^No sessions · Approved, last used /)).toBeVisible();
  await checkScreen(page, 'personal-info-services-approved');
  await card.getByRole('button', { name: `Remove ${names.photos}` }).click();
  await expect(shownStatus(card)).toHaveText(`${names.photos} no longer has your approval: it asks again next time.`);
  await expect(card.getByText('You are not signed in to any service.')).toBeVisible();
  await page.reload();
  const activity = page.locator('.mantine-Paper-root', { has: page.getByRole('heading', { name: 'Recent Activity' }) });
  await expect(activity.getByText(`Approval withdrawn from ${names.photos}`)).toBeVisible();
});
