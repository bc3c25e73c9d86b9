import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, TEST_CHROMIUM } from './tests/support/chromium.ts';

// The end-to-end tests run against the real server (SQLite in a fresh data directory) serving
// the built PWA; `npm test` builds it first. Mails go to DATA_DIR/outbox, which tests read.
export const E2E_PORT = 8181;
export const E2E_URL = `http://127.0.0.1:${E2E_PORT}`;
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'hg-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  // The longest flows (an admin creating and editing, with wide and narrow screenshots of each
  // screen) take 55-60 s on a slow 2-core VM with two workers: room for that, not a hang.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // Two, in CI as well: one took the whole run past 20 minutes on this 2-core VM (the end-to-end
  // step alone 10.1 min with one worker, 8.7 with two, measured 2026-12-02 without screenshots).
  // Not three: the step is bound by the CPU (Chromium's processes use most of it), and three took
  // 631 s against 591 s with two, using more of it (2026-12-05).
  workers: 2,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  outputDir: 'test-results/playwright',
  use: {
    baseURL: E2E_URL,
    browserName: 'chromium',
    // checkScreen's wide size: screens are checked there without a resize first.
    viewport: { width: 1280, height: 800 },
    headless: true,
    launchOptions: {
      executablePath: TEST_CHROMIUM,
      args: CHROMIUM_ARGS,
    },
    // Locally, a failed test keeps its trace: actions, network, console and DOM snapshots, which
    // found the races so far. Not in CI: its clone is thrown away unread, and recording every test
    // cost CPU the tests wait for (admin-users and oidc-consent, 2026-12-04: Chromium's browser
    // process and the test workers used 55 s of CPU with traces, 27 s without).
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'node --import tsx server/main.ts',
    url: `${E2E_URL}/manifest.webmanifest`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: E2E_URL,
      DATA_DIR: dataDir,
      STATIC_DIR: 'dist',
      LOG_LEVEL: 'warn',
      // As behind a proxy on the same host: a test's own request may say which address it is from.
      TRUST_PROXY: '127.0.0.1',
      ACCESS_TOKEN_TTL: process.env.E2E_ACCESS_TOKEN_TTL ?? '900',
    },
  },
});
