import { expect, test } from '@playwright/test';
import { accessibilityViolations } from './support/accessibility';

// Every checkScreen() in the other specs passes only if axe finds nothing: this shows that it
// does find things, so those passes are not those of a check that runs no rules.
test('the accessibility check names what it finds: low contrast, a nameless button, a page without main', async ({ page }) => {
  await page.setContent(`<!doctype html><html lang="en"><head><title>Check</title></head><body>
    <p style="color:#aaaaaa;background:#ffffff">Pale text</p><button><svg width="10" height="10"></svg></button></body></html>`);
  const found = await accessibilityViolations(page);
  expect(found.map((line) => line.split(':')[0])).toEqual(expect.arrayContaining(['color-contrast', 'button-name', 'landmark-one-main']));
  // The line names the pale paragraph alone, and the contrast it measured (#aaa on white: 2.32:1).
  expect(found.find((line) => line.startsWith('color-contrast'))).toMatch(/^color-contrast: [^:]+: p \(.*contrast of 2\.32\b/);

  await page.setContent(`<!doctype html><html lang="en"><head><title>Check</title></head><body><main><h1>Fine</h1><p>Dark text</p><button>Named</button></main></body></html>`);
  expect(await accessibilityViolations(page)).toEqual([]);
});
