import { expect, test, type Page } from '@playwright/test';
import { totpCode, totpStep } from '../../server/two-step/totp';
import { E2E_ADMIN } from './global-setup';
import { setUpTwoStepElsewhere, turnOnTwoStep, verifiedPerson } from './support/api';
import { allowClipboardWrites, checkScreen, shownStatus, signIn, signInToHome } from './support/ui';

/** The code an authenticator app holding `secret` shows now, or `steps` time steps from now. */
const appCode = (secret: string, steps = 0) => totpCode(secret, totpStep(Date.now()) + steps);

/** The recovery codes a dialog shows, once all ten are there. */
async function shownRecoveryCodes(page: Page): Promise<string[]> {
  const items = page.getByRole('dialog', { name: 'Save your recovery codes' }).getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(items).toHaveCount(10);
  return items.allInnerTexts();
}

const twoStepCard = (page: Page) => page.locator('.mantine-Paper-root', { has: page.getByRole('heading', { name: 'Two-Step Sign-In' }) });

test('a person turns on two-step sign-in with an authenticator app; sign-in then asks for its code; the password turns it off', async ({ page, browser }) => {
  const person = await verifiedPerson('twostep');
  await signInToHome(page, person);
  await page.getByRole('link', { name: 'Personal Info' }).first().click();
  const card = twoStepCard(page);
  await card.getByRole('button', { name: 'Turn On' }).click();

  const dialog = page.getByRole('dialog', { name: 'Turn on two-step sign-in' });
  await expect(dialog.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const shownKey = await dialog.getByLabel('Or type this setup key').inputValue();
  expect(shownKey).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
  let secret = shownKey.replaceAll(' ', '');
  // A tap beside the dialog does not throw away the key the app may hold already.
  await page.mouse.click(5, 5);
  await expect(dialog.getByLabel('Or type this setup key')).toHaveValue(shownKey);
  await dialog.getByRole('button', { name: 'Turn On' }).click();
  await expect(dialog.getByText('Code is required')).toBeVisible();
  await expect(dialog.getByText('Current password is required')).toBeVisible();
  const codeInput = dialog.getByLabel('2. Type the 6-digit code the app shows');
  const passwordInput = dialog.getByLabel('3. Type your current password');
  await codeInput.fill(appCode(secret, 5));
  await passwordInput.fill(person.password);
  await dialog.getByRole('button', { name: 'Turn On' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('The code is not correct; check that the app shows Home Guard and try the newest code');
  // The password too, as turning it off asks: a session alone cannot enrol an app, even with the right code.
  await codeInput.fill(appCode(secret));
  await passwordInput.fill('Not-my-password1');
  await dialog.getByRole('button', { name: 'Turn On' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('The current password is wrong');
  await checkScreen(page, 'two-step-turn-on');
  // A setup begun on another device meanwhile replaces this key: the dialog says so, and starts again with a new one.
  await setUpTwoStepElsewhere(person);
  await codeInput.fill(appCode(secret));
  await passwordInput.fill(person.password);
  await dialog.getByRole('button', { name: 'Turn On' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('This setup key is no longer valid: it is over an hour old, or a newer setup replaced it. Start again with a new one');
  await checkScreen(page, 'two-step-turn-on-key-replaced');
  await dialog.getByRole('button', { name: 'Start again' }).click();
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await expect(dialog.getByLabel('Or type this setup key')).not.toHaveValue(shownKey);
  secret = (await dialog.getByLabel('Or type this setup key').inputValue()).replaceAll(' ', '');
  await expect(codeInput).toHaveValue('');
  // Apps show the code as "123 456"; typed that way it is taken too.
  await codeInput.fill(appCode(secret).replace(/^(\d{3})/, '$1 '));
  await passwordInput.fill(person.password);
  await dialog.getByRole('button', { name: 'Turn On' }).click();
  await expect(dialog).toBeHidden();

  // Once on, the recovery codes are shown, once; copied, they say whose they are.
  const saved = page.getByRole('dialog', { name: 'Save your recovery codes' });
  const recoveryCodes = await shownRecoveryCodes(page);
  for (const code of recoveryCodes) expect(code).toMatch(/^[0-9a-f]{5}-[0-9a-f]{5}$/);
  await allowClipboardWrites(page, 'denied');
  await saved.getByRole('button', { name: 'Copy' }).click();
  await expect(saved.getByRole('alert')).toHaveText('Could not copy. Select the text and copy it yourself. Or download them.');
  await allowClipboardWrites(page, 'granted');
  await page.context().grantPermissions(['clipboard-read']);
  await saved.getByRole('button', { name: 'Copy' }).click();
  await expect(saved.getByRole('alert')).toHaveCount(0);
  await expect(saved.getByRole('button', { name: 'Copied' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain(`Home Guard recovery codes for ${person.email}`);
  for (const code of recoveryCodes) expect(copied).toContain(code);
  const download = page.waitForEvent('download');
  await saved.getByRole('button', { name: 'Download' }).click();
  expect((await download).suggestedFilename()).toBe('home-guard-recovery-codes.txt');
  await checkScreen(page, 'two-step-recovery-codes');
  await saved.getByRole('button', { name: 'Done' }).click();
  await expect(card.getByRole('button', { name: 'Turn Off' })).toBeFocused(); // back on the button that opened the dialogs
  await expect(saved).toBeHidden();
  await expect(shownStatus(card)).toHaveText('Two-step sign-in is on. Next time you sign in, have your authenticator app ready.');
  await expect(card.getByText(/^On since .+\. Signing in asks for your password and a code from your authenticator app\. You have 10 recovery codes left, in case you lose your phone\.$/)).toBeVisible();
  await checkScreen(page, 'personal-info-two-step-on');

  // Another device: the password alone is not enough.
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await other.goto('/auth/login');
  await signIn(other, person);
  const codeField = other.getByLabel('Authentication code');
  await expect(codeField).toBeFocused();
  await expect(other.getByText('Two-step sign-in is on: type the 6-digit code your authenticator app shows for Home Guard.')).toBeVisible();
  await checkScreen(other, 'sign-in-code');
  await other.getByRole('button', { name: 'Log In' }).click();
  await expect(other.getByText('Code is required')).toBeVisible();
  await codeField.fill(appCode(secret, 5));
  await other.getByRole('button', { name: 'Log In' }).click();
  await expect(other.getByText('The code is not correct; check that the app shows Home Guard and try the newest code')).toBeVisible();
  await expect(codeField).toBeFocused(); // where the refusal is read, and the next code typed
  await codeField.fill(appCode(secret, 1));
  await other.getByRole('button', { name: 'Log In' }).click();
  await expect(other.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible();
  await otherContext.close();

  await page.reload();
  await card.getByRole('button', { name: 'Turn Off' }).click();
  const off = page.getByRole('dialog', { name: 'Turn off two-step sign-in' });
  await off.getByLabel('Current Password').fill('Not-my-password1');
  await off.getByRole('button', { name: 'Turn Off' }).click();
  await expect(off.getByRole('alert')).toHaveText('The current password is wrong');
  await off.getByLabel('Current Password').fill(person.password);
  await off.getByRole('button', { name: 'Turn Off' }).click();
  await expect(off).toBeHidden();
  await expect(shownStatus(card)).toHaveText('Two-step sign-in is off. Signing in asks for your password only.');
  await expect(card.getByRole('button', { name: 'Turn On' })).toBeVisible();

  const third = await browser.newContext();
  const again = await third.newPage();
  await signInToHome(again, person);
  await third.close();
});

test('an administrator turns two-step sign-in off for someone who lost their authenticator app', async ({ page, browser }) => {
  const person = await verifiedPerson('lostphone');
  const { id } = await turnOnTwoStep(person, (secret) => appCode(secret));

  await page.goto(`/auth/login?from=${encodeURIComponent(`/admin/users/view/${id}`)}`);
  await signIn(page, E2E_ADMIN);
  const twoStep = page.getByText('Two-Step Sign-In').locator('..');
  await expect(twoStep).toContainText('On');
  await page.getByRole('link', { name: 'Edit' }).click();
  const card = twoStepCard(page);
  await expect(card).toContainText(`On: signing in asks ${person.name} for a code from an authenticator app.`);
  await card.getByRole('button', { name: 'Turn Off Two-Step Sign-In' }).click();
  const confirm = page.getByRole('dialog', { name: `Turn off two-step sign-in for ${person.name}?` });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await card.getByRole('button', { name: 'Turn Off Two-Step Sign-In' }).click();
  await checkScreen(page, 'admin-user-turn-off-two-step');
  await confirm.getByRole('button', { name: 'Turn Off' }).click();
  await expect(shownStatus(card)).toHaveText(`Two-step sign-in is off. ${person.name} signs in with their password alone.`);
  await expect(card.getByRole('button', { name: 'Turn Off Two-Step Sign-In' })).toBeHidden();
  await expect(page.locator('h2:focus')).toHaveText('Two-Step Sign-In'); // its button gone, the section keeps the focus
  await checkScreen(page, 'admin-user-two-step-off');
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(twoStep).toContainText('Off');

  const theirs = await browser.newContext();
  await signInToHome(await theirs.newPage(), person);
  await theirs.close();
});

test('a person who lost their phone signs in with a recovery code, then makes new ones', async ({ page }) => {
  const person = await verifiedPerson('recovery');
  const { recoveryCodes } = await turnOnTwoStep(person, (secret) => appCode(secret));

  await page.goto('/auth/login');
  await signIn(page, person);
  await page.getByRole('button', { name: 'Lost your phone? Use a recovery code' }).click();
  const codeField = page.getByLabel('Recovery code');
  await expect(codeField).toBeFocused();
  await codeField.fill('123456');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText('A recovery code is 10 letters and digits, like 3f9a2-c07b1')).toBeVisible();
  await codeField.fill('aaaaa-bbbbb');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText('This recovery code is not correct, or it was already used')).toBeVisible();
  await checkScreen(page, 'sign-in-recovery-code');
  // Back and forth: the app's field comes back empty, and so does this one.
  await page.getByRole('button', { name: 'Use your authenticator app' }).click();
  await expect(page.getByLabel('Authentication code')).toHaveValue('');
  await page.getByRole('button', { name: 'Lost your phone? Use a recovery code' }).click();
  await expect(codeField).toHaveValue('');
  await expect(page.getByText('This recovery code is not correct, or it was already used')).toBeHidden();
  // Typed as people copy from paper: capitals, no hyphen.
  await codeField.fill(recoveryCodes[0]!.toUpperCase().replace('-', ''));
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible();

  await page.getByRole('link', { name: 'Personal Info' }).first().click();
  const card = twoStepCard(page);
  await expect(card).toContainText('You have 9 recovery codes left, in case you lose your phone.');
  // Recent Activity tells it from a sign-in with the app: whoever did not use a code sees one was.
  const activity = page.locator('.mantine-Paper-root', { has: page.getByRole('heading', { name: 'Recent Activity' }) });
  await expect(activity.getByText('Signed in with a recovery code')).toHaveCount(1);
  await card.getByRole('button', { name: 'New Recovery Codes' }).click();
  const renew = page.getByRole('dialog', { name: 'New recovery codes' });
  await renew.getByLabel('Current Password').fill('Not-my-password1');
  await renew.getByRole('button', { name: 'Make New Codes' }).click();
  await expect(renew.getByRole('alert')).toHaveText('The current password is wrong');
  await renew.getByLabel('Current Password').fill(person.password);
  await renew.getByRole('button', { name: 'Make New Codes' }).click();
  const saved = page.getByRole('dialog', { name: 'Save your recovery codes' });
  const fresh = await shownRecoveryCodes(page);
  expect(fresh.filter((code) => recoveryCodes.includes(code))).toEqual([]);
  // Closed with Escape, as people do, it is still done.
  await page.keyboard.press('Escape');
  await expect(saved).toBeHidden();
  await expect(shownStatus(card)).toHaveText('New recovery codes are ready. The old ones no longer work.');
  await expect(card).toContainText('You have 10 recovery codes left, in case you lose your phone.');
});

test('the code field goes when the email is changed: another account may sign in without one', async ({ page }) => {
  const withCode = await verifiedPerson('asks-code');
  await turnOnTwoStep(withCode, (secret) => appCode(secret));
  const without = await verifiedPerson('no-code');
  await page.goto('/auth/login');
  await signIn(page, withCode);
  await expect(page.getByLabel('Authentication code')).toBeVisible();
  await page.getByLabel('Email').fill(without.email);
  await expect(page.getByLabel('Authentication code')).toHaveCount(0);
  await page.getByLabel('Password', { exact: true }).fill(without.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('heading', { name: `Welcome, ${without.name}` })).toBeVisible();
});
