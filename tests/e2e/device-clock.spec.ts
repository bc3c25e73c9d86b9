import { mkdtempSync, readdirSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startServerProcess, type ServerProcess } from '../support/server-process';
import { verifiedPerson } from './support/api';
import { controlled, signIn } from './support/ui';

// A device whose clock is wrong by more than a token's lifetime: here the server runs 20 minutes
// behind the browser (libfaketime shifts the server process's clock, as a badly set device would
// differ from it). Every token the server hands out then looks expired to the device on arrival.

/** Environment that runs a process `minutes` behind the real time (Debian's libfaketime). */
function clockBehindBy(minutes: number): Record<string, string> {
  const library = readdirSync('/usr/lib')
    .map((dir) => path.join('/usr/lib', dir, 'faketime', 'libfaketime.so.1'))
    .find((candidate) => existsSync(candidate));
  if (!library) throw new Error('libfaketime is missing: apt-get install faketime (.ci/run installs it)');
  return { LD_PRELOAD: library, FAKETIME: `-${minutes}m`, FAKETIME_DONT_FAKE_MONOTONIC: '1' };
}

const refreshesAnswered = async (server: ServerProcess) => {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return [...text.matchAll(/^home_guard_refreshes_total\{result="\w+"\} (\d+)$/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
};

/** The offset the broker keeps in the vault's settings. */
const savedOffset = (page: Page) =>
  page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve) => {
      const request = indexedDB.open('guard-local', 3);
      request.onsuccess = () => resolve(request.result);
    });
    const row = await new Promise<{ value: string } | undefined>((resolve) => {
      const request = db.transaction('settings').objectStore('settings').get('guard-server-clock-offset');
      request.onsuccess = () => resolve(request.result as { value: string } | undefined);
    });
    db.close();
    return row === undefined ? undefined : Number(row.value);
  });

let server: ServerProcess;
let dataDir: string;
test.beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'hg-e2e-clock-'));
  server = await startServerProcess({ DATA_DIR: dataDir, STATIC_DIR: 'dist', METRICS: 'true', ...clockBehindBy(20) });
});
test.afterAll(async () => {
  await server.stop();
});

test('a device clock 20 minutes ahead of the server does not make every call refresh first', async ({ page }) => {
  const person = await verifiedPerson('clock', server.url, path.join(dataDir, 'outbox'));
  await page.goto(`${server.url}/auth/login`);
  await signIn(page, person);
  await expect(page.getByRole('heading', { name: `Welcome, ${person.name}` })).toBeVisible();
  await controlled(page);

  const before = await refreshesAnswered(server);
  for (let call = 0; call < 5; call++) {
    expect(await page.evaluate(() => fetch('/api/v1/auth/profile').then((answer) => answer.status))).toBe(200);
  }
  await page.goto(`${server.url}/personal-info`);
  await expect(page.getByRole('heading', { name: 'Personal Info', exact: true })).toBeVisible();
  expect(await refreshesAnswered(server)).toBe(before);
  // What the worker learned is kept, for when it is started again.
  expect(Math.abs((await savedOffset(page))! + 20 * 60_000)).toBeLessThan(10_000);
});
