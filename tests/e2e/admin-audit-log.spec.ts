import { expect, test } from '@playwright/test';
import { E2E_ADMIN } from './global-setup';
import { E2E_URL } from './support/api';
import { checkScreen, personOnTheirDevice, signIn, watchForText } from './support/ui';

// Where the wrong password comes from, through the proxy the test server trusts (playwright.config.ts).
const GUESSER = '198.51.100.23';

test('a person sees their recent activity, signs out, and an administrator sees it all in the audit log, narrowed to one address or one account', async ({ page, browser }) => {
  const { person, device, close } = await personOnTheirDevice(browser, 'audited');
  const wrong = await fetch(`${E2E_URL}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': GUESSER }, body: JSON.stringify({ email: person.email, password: 'Not-the-password1' }) });
  expect(wrong.status).toBe(401);

  await device.goto('/personal-info');
  const activity = device.getByRole('list', { name: 'Recent activity' });
  await expect(activity.getByText('Sign-in refused: wrong password')).toBeVisible();
  await expect(activity.getByText('Signed in', { exact: true }).first()).toBeVisible();
  await expect(activity.getByText(/Linux, Chrom/).first()).toBeVisible();
  await checkScreen(device, 'personal-info-recent-activity');
  await device.goto('/');
  await device.getByRole('button', { name: 'Sign Out' }).click();
  await expect(device.getByRole('heading', { name: 'Sign In' })).toBeVisible();

  await page.goto(`/auth/login?from=${encodeURIComponent('/admin/audit-log')}`);
  await signIn(page, E2E_ADMIN);
  await expect(page.getByRole('heading', { name: 'Audit Log' })).toBeVisible();
  await expect(page.getByText('Sign-ins and sign-outs, refused sign-ins and changes to accounts and services, kept for 90 days.')).toBeVisible();
  await page.getByLabel('Search').fill(person.name);
  const refused = page.getByRole('row', { name: /Sign-in refused: wrong password/ });
  await expect(refused).toHaveCount(1);
  await expect(refused.getByRole('link', { name: person.name })).toBeVisible();
  await expect(page.getByRole('row', { name: /Signed out/ })).toHaveCount(1);
  await checkScreen(page, 'admin-audit-log');
  // An old link past the last page moves to the last page, without first saying there are no events.
  const sawNoEvents = await watchForText(page, 'No events found.');
  await page.goto(page.url().replace(/page=\d+/, 'page=40'));
  await expect(page).toHaveURL(/page=1\b/);
  await expect(refused).toHaveCount(1);
  expect(await sawNoEvents()).toBe(false);
  await page.getByLabel('Events').selectOption({ label: 'Refused sign-ins and reused tokens' });
  await expect(page.getByRole('row', { name: /Signed in|Signed out/ })).toHaveCount(0);
  await expect(refused).toHaveCount(1);
  await page.getByLabel('Events').selectOption({ label: 'All events' });
  await expect(page.getByRole('row', { name: /Signed in/ }).first()).toBeVisible();

  // Everything from the address the wrong password came from: nothing else came from there.
  await refused.getByRole('link', { name: GUESSER }).click();
  await expect(page.getByText(`Only events from ${GUESSER}.`)).toBeVisible();
  await expect(page.getByRole('row', { name: /Signed in/ })).toHaveCount(0);
  await expect(refused).toHaveCount(1);
  await checkScreen(page, 'admin-audit-log-one-address');
  await page.getByRole('link', { name: 'Show All' }).click();
  await expect(page.getByText(`Only events from ${GUESSER}.`)).toHaveCount(0);
  await expect(page.getByRole('row', { name: /Signed in/ }).first()).toBeVisible();

  await refused.getByRole('link', { name: person.name }).click();
  await page.getByRole('main').getByRole('link', { name: 'Audit Log' }).click();
  await expect(page.getByText(`Only ${person.name}'s events.`)).toBeVisible();
  await expect(page.getByRole('row', { name: /Signed in/ }).first()).toBeVisible();
  // The administrator's own sign-in, listed a moment ago, is not among them.
  await expect(page.getByRole('row', { name: /\(You\)/ })).toHaveCount(0);
  await page.getByRole('link', { name: 'Show All' }).click();
  await expect(page.getByText(`Only ${person.name}'s events.`)).toHaveCount(0);
  await close();
});
