import { randomBytes } from 'node:crypto';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import { AVATAR_MAX_BYTES } from '../../contract/verification';
import { CHROMIUM_ARGS, TEST_CHROMIUM } from '../support/chromium';
import { startServerProcess, type ServerProcess } from '../support/server-process';
import { codeIn, startSmtpSink } from '../support/smtp-sink';
import { avatarPng, login, newPerson, register } from './support/api';
import { checkScreen, signIn } from './support/ui';

let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let server: ServerProcess;

test.beforeAll(async () => {
  smtp = await startSmtpSink();
  server = await startServerProcess({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'hg-e2e-mail-')), STATIC_DIR: 'dist', SMTP_URL: smtp.url });
});
test.afterAll(async () => {
  await server.stop();
  await smtp.close();
});

const profileOf = async (person: { email: string; password: string }) => {
  const { access } = await login({ ...person, name: '' }, server.url);
  return (await fetch(`${server.url}/api/v1/auth/profile`, { headers: { authorization: `Bearer ${access}` } })).json();
};

/**
 * The progress bar over the three steps: 0, 50 or 100 percent (spec §9), read as the step it is;
 * the steps' list marks the current one.
 */
async function expectProgress(page: Page, percent: number) {
  const [number, step] = percent === 0 ? [1, 'Verify Email'] : percent === 50 ? [2, 'Profile Picture'] : [3, 'Done'];
  const bar = page.getByRole('progressbar', { name: 'Verification progress' });
  await expect(bar).toHaveAttribute('aria-valuenow', String(percent));
  await expect(bar).toHaveAttribute('aria-valuetext', `Step ${number} of 3: ${step}`);
  await expect(page.getByRole('list', { name: 'Verification steps' }).getByRole('listitem').and(page.locator('[aria-current="step"]'))).toHaveText(step);
}

/** Signs in with a fresh account and walks to the picture step. */
async function throughEmailStep(page: Page, person: ReturnType<typeof newPerson>) {
  await page.goto(`${server.url}/personal-info`);
  await signIn(page, person);
  await expect(page).toHaveURL(/\/verify\?from=%2Fpersonal-info$/);
  await page.getByRole('link', { name: 'Start Verification' }).click();
  await expectProgress(page, 0);
  for (const step of ['Verify Email', 'Profile Picture', 'Done']) await expect(page.getByText(step, { exact: true })).toBeVisible();
  const email = page.getByLabel('Email');
  await expect(email).toHaveAttribute('placeholder', `${person.email[0]}${'*'.repeat(person.email.length - 2)}${person.email.at(-1)}`);
  const next = page.getByRole('button', { name: 'Next' });
  await email.fill(person.email.toUpperCase());
  await expect(next).toBeDisabled();
  await expect(page.getByText('Type it in small letters and without spaces, as your account has it')).toBeVisible();
  await email.fill(`x${person.email}`);
  await expect(page.getByText('This is not the email of your account')).toBeVisible();
  await email.fill(person.email);
  await expect(page.getByText('This is not the email of your account')).toHaveCount(0);
  await expect(next).toBeEnabled();
  await next.click();
  await expect(page.getByRole('heading', { name: 'Enter the code' })).toBeVisible();
  await expect.poll(() => smtp.mails.some((mail) => mail.to.includes(person.email))).toBe(true);
  const code = codeIn(smtp.mails.filter((mail) => mail.to.includes(person.email)).at(-1)!.raw);
  const verify = page.getByRole('button', { name: 'Verify' });
  await expect(page.getByLabel('Verification code, digit 6 of 6', { exact: true })).toBeVisible();
  await page.getByLabel('Verification code').first().click();
  await page.keyboard.type(code.slice(0, 5));
  await expect(verify).toBeDisabled();
  await page.keyboard.type(code.slice(5));
  await expect(verify).toBeEnabled();
  await verify.click();
  await expect(page.getByRole('heading', { name: 'Add a profile picture' })).toBeVisible();
}

test('a new account verifies its email by SMTP and a picture, then lands on the page it asked for', async ({ page }) => {
  const person = newPerson('verify');
  await register(person, server.url);
  await throughEmailStep(page, person);
  // Away looking for a photo, the tab is reloaded (or discarded by a phone): the page first asked
  // for is still where the flow ends.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Add a profile picture' })).toBeVisible();
  await expectProgress(page, 50);
  await checkScreen(page, 'verify-avatar');
  // On a phone both buttons say all of their label (side by side they read "Choose a pict").
  await page.setViewportSize({ width: 375, height: 740 });
  for (const name of ['Choose a picture', 'Use the camera']) {
    const label = page.getByRole('button', { name }).locator('.mantine-Button-label');
    expect(await label.evaluate((element) => element.scrollWidth - element.clientWidth), name).toBe(0);
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  const picture = path.join(mkdtempSync(path.join(os.tmpdir(), 'hg-pic-')), 'me.png');
  writeFileSync(picture, await avatarPng('#e8590c'));
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose a picture' }).click();
  await (await chooser).setFiles(picture);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'All set' })).toBeVisible();
  await expectProgress(page, 100);
  await checkScreen(page, 'verify-review');
  await page.getByRole('button', { name: 'Finish' }).click();

  await expect(page).toHaveURL(/\/personal-info$/);
  const profile = await profileOf(person);
  expect(profile).toMatchObject({ email_verified: true, avatar_verified: true, verified: true });
  // Personal Info shows the new picture (spec §2).
  await expect(page.getByRole('main').getByRole('img', { name: person.name })).toHaveAttribute('src', profile.profile_picture);
  await page.getByRole('link', { name: 'Home' }).first().click();
  await expect(page.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible();
  await expect(page.locator(`img[src="${profile.profile_picture}"]`).first()).toBeVisible();
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Switch account' }).click();
  await expect(page.getByRole('list', { name: 'Saved accounts' }).locator(`img[src="${profile.profile_picture}"]`)).toBeVisible();
});

test('a wrong code and an early resend are explained', async ({ page }) => {
  const person = newPerson('mistakes');
  await register(person, server.url);
  await page.goto(`${server.url}/auth/login`);
  await signIn(page, person);
  await expect(page.getByRole('link', { name: 'Start Verification' })).toBeVisible();
  await checkScreen(page, 'verify-welcome');
  await page.getByRole('link', { name: 'Start Verification' }).click();
  await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
  await checkScreen(page, 'verify-email');
  // Enter sends the address, as Next does.
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Email').press('Enter');
  await page.getByLabel('Verification code').first().click();
  await page.keyboard.type('000000');
  // No answer: the code typed is kept, to send again.
  await page.context().route('**/api/v1/auth/email/otp', (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toHaveText('Home Guard cannot be reached. Check the connection and try again.');
  await expect(page.getByLabel('Verification code').first()).toHaveValue('0');
  await page.context().unroute('**/api/v1/auth/email/otp');
  await page.getByLabel('Verification code').last().press('Enter'); // Enter in the code sends it, as Verify does
  await expect(page.getByRole('alert')).toHaveText(/The code is not correct|Too many wrong codes/);
  await expect(page.getByLabel('Verification code').first()).toHaveValue('');
  // Refused, the code is cleared and typing goes on in its first digit.
  await expect(page.getByLabel('Verification code').first()).toBeFocused();
  await checkScreen(page, 'verify-code-wrong');
  // On the narrowest phones the six boxes narrow to fit the card: none reaches past its edge.
  for (const width of [320, 375]) {
    await page.setViewportSize({ width, height: 740 });
    const card = (await page.locator('.mantine-Paper-root').first().boundingBox())!;
    const boxes = await page.getByLabel('Verification code').evaluateAll((inputs) => inputs.map((input) => input.getBoundingClientRect()).map(({ left, right }) => ({ left, right })));
    expect(boxes, `${width} px`).toHaveLength(6);
    for (const box of boxes) expect(box.left >= card.x && box.right <= card.x + card.width, `${width} px: ${JSON.stringify(box)} in ${JSON.stringify(card)}`).toBe(true);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('button', { name: 'Send a new code' }).click();
  await expect(page.getByRole('alert')).toHaveText('A code was sent a moment ago; wait a minute before asking for another');
});

/** Chooses the photo on the picture step and goes on: it is taken, and verification is done. */
async function sendsAndFinishes(page: Page, photo: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose a picture' }).click();
  await (await chooser).setFiles(photo);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'All set' })).toBeVisible();
}

test('a photo over the upload limit is made smaller in the browser and accepted', async ({ page }) => {
  const person = newPerson('photo');
  await register(person, server.url);
  await throughEmailStep(page, person);
  // Noise does not compress: 2000 × 1000 pixels kept as they are, about 6 MB.
  const photo = path.join(mkdtempSync(path.join(os.tmpdir(), 'hg-photo-')), 'photo.png');
  writeFileSync(photo, await sharp(randomBytes(2000 * 1000 * 3), { raw: { width: 2000, height: 1000, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer());
  expect(statSync(photo).size).toBeGreaterThan(AVATAR_MAX_BYTES);
  await sendsAndFinishes(page, photo);
});

test('a photo of more megapixels than the server takes, though under 5 MB, is made smaller in the browser and accepted', async ({ page }) => {
  const person = newPerson('megapixels');
  await register(person, server.url);
  await throughEmailStep(page, person);
  // 8000 × 5500 pixels of one colour: 44 megapixels in a few kilobytes.
  const photo = path.join(mkdtempSync(path.join(os.tmpdir(), 'hg-photo-')), 'photo.png');
  writeFileSync(photo, await sharp({ create: { width: 8000, height: 5500, channels: 3, background: '#4a7' } }).png().toBuffer());
  expect(statSync(photo).size).toBeLessThan(AVATAR_MAX_BYTES);
  await sendsAndFinishes(page, photo);
});

async function cameraBrowser(extra: string[]): Promise<Browser> {
  return chromium.launch({ executablePath: TEST_CHROMIUM, args: [...CHROMIUM_ARGS, '--use-fake-device-for-media-stream', ...extra] });
}

test('a file that is no image is refused; the camera captures a PNG named avatar.png; a denied or missing camera says so', async () => {
  const person = newPerson('camera');
  await register(person, server.url);
  const allowed = await cameraBrowser(['--use-fake-ui-for-media-stream']);
  try {
    // Without a service worker the broker runs in the page, so its uploads can be watched here.
    const page = await (await allowed.newContext({ serviceWorkers: 'block' })).newPage();
    await page.addInitScript(() => {
      const uploads: Array<{ field: string; name: string; type: string }> = [];
      (window as unknown as { uploads: typeof uploads }).uploads = uploads;
      const send = window.fetch.bind(window);
      window.fetch = async (input, init) => {
        const request = new Request(input, init);
        if (request.headers.get('content-type')?.startsWith('multipart/form-data')) {
          for (const [field, value] of await request.clone().formData()) if (value instanceof File) uploads.push({ field, name: value.name, type: value.type });
        }
        return send(request);
      };
    });
    await throughEmailStep(page, person);

    const notes = path.join(mkdtempSync(path.join(os.tmpdir(), 'hg-txt-')), 'notes.txt');
    writeFileSync(notes, 'not a picture');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose a picture' }).click();
    await (await chooser).setFiles(notes);
    await expect(page.getByRole('alert')).toHaveText('Please select an image file.');
    await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();

    await page.getByRole('button', { name: 'Use the camera' }).click();
    await expect(page.getByRole('button', { name: 'Capture' })).toBeEnabled();
    await page.getByRole('button', { name: 'Capture' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByRole('heading', { name: 'All set' })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { uploads: unknown[] }).uploads)).toEqual([{ field: 'image', name: 'avatar.png', type: 'image/png' }]);
  } finally {
    await allowed.close();
  }

  const denied = await cameraBrowser(['--deny-permission-prompts']);
  try {
    const other = newPerson('nocamera');
    await register(other, server.url);
    const page = await (await denied.newContext()).newPage();
    await throughEmailStep(page, other);
    await page.getByRole('button', { name: 'Use the camera' }).click();
    await expect(page.getByRole('alert')).toHaveText('Unable to access camera.');
    // A browser without the camera API (or an address that is not secure) is told so.
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.evaluate(() => Object.defineProperty(navigator, 'mediaDevices', { value: undefined }));
    await page.getByRole('button', { name: 'Use the camera' }).click();
    await expect(page.getByRole('alert')).toHaveText('Camera not supported on this device/browser.');
  } finally {
    await denied.close();
  }
});

test('an email verified meanwhile in another tab: asking this one for a new code moves the flow on', async ({ page }) => {
  const person = newPerson('two-tabs');
  await register(person, server.url);
  await page.goto(`${server.url}/auth/login`);
  await signIn(page, person);
  await page.getByRole('link', { name: 'Start Verification' }).click();
  await page.getByLabel('Email').fill(person.email);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'Enter the code' })).toBeVisible();
  await expect.poll(() => smtp.mails.some((mail) => mail.to.includes(person.email))).toBe(true);
  // The other tab (another sign-in of the account) types the code.
  const { access } = await login({ ...person, name: '' }, server.url);
  const code = codeIn(smtp.mails.filter((mail) => mail.to.includes(person.email)).at(-1)!.raw);
  const confirmed = await fetch(`${server.url}/api/v1/auth/email/otp`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${access}` }, body: JSON.stringify({ otp: code }) });
  expect(confirmed.status).toBe(200);
  await page.getByRole('button', { name: 'Send a new code' }).click();
  await expect(page.getByRole('heading', { name: 'Add a profile picture' })).toBeVisible();
});

test('someone held by verification (a mistyped email, say) can switch account or sign out from its pages', async ({ page }) => {
  const person = newPerson('held');
  await register(person, server.url);
  await page.goto(`${server.url}/auth/login`);
  await signIn(page, person);
  await expect(page.getByRole('link', { name: 'Start Verification' })).toBeVisible();
  await expect(page.getByText(`Signed in as ${person.email}.`)).toBeVisible();
  await page.getByRole('button', { name: 'Switch account' }).click();
  await expect(page.getByRole('list', { name: 'Saved accounts' })).toBeVisible();
  await page.getByRole('list', { name: 'Saved accounts' }).getByText(person.email).click();
  await page.getByRole('link', { name: 'Start Verification' }).click();
  await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
  await checkScreen(page, 'verify-email-exit');
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
});
