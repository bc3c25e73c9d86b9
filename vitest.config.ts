import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { CHROMIUM_ARGS, TEST_CHROMIUM } from './tests/support/chromium.ts';

// Integration tests run twice: once on SQLite, once on PostgreSQL (TEST_DATABASE picks). Files
// share a worker's modules (isolate: false): importing the server afresh for each file took 98 s
// of the two projects' 369 (16 s shared, 302 s in all; 2026-12-04, a 2-core PVM VM). Every test
// starts its own app on its own database, and the files that spy restore after each test.
const integration = ['tests/integration/**/*.test.ts', 'tests/crash/**/*.test.ts'];
const integrationOptions = {
  globalSetup: ['tests/support/template-database.ts'],
  isolate: false,
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // What a test polls for comes after the answer (a mail through the SMTP sink, a log line): on a
  // busy 2-core VM a reset mail took over the default 1 s to arrive (CI 383, 2026-12-07).
  expect: { poll: { timeout: 5_000 } },
};

// Browser code (the web app, the service worker's broker and vault) is tested in real
// Chromium: real IndexedDB, WebCrypto, Web Locks and BroadcastChannel.
const chromium = playwright({
  launchOptions: {
    executablePath: TEST_CHROMIUM,
    args: CHROMIUM_ARGS,
  },
});

export default defineConfig({
  test: {
    // Both cores (the default leaves one idle): most tests wait on SQLite, PostgreSQL or a
    // child process, so two files at once cut the run by about a third. Not more: with two, the
    // run already keeps both cores 86% busy; three took 266 and 320 s, four 313 s, against 317 s
    // with two (2026-12-05).
    maxWorkers: 2,
    globalSetup: ['tests/support/compile-test-server.ts'],
    projects: [
      { test: { name: 'unit', include: ['contract/**/*.test.ts', 'server/**/*.test.ts'] } },
      {
        // A server busy or failing, for the broker's tests: /answer-with/503/… is answered 503.
        plugins: [
          {
            name: 'answer-with-status',
            configureServer(server) {
              server.middlewares.use('/answer-with/', (request, response) => {
                response.statusCode = Number(request.url?.split('/')[1]);
                response.end();
              });
            },
          },
        ],
        // Pre-bundled up front: discovering them mid-run makes Vite reload the test page.
        optimizeDeps: {
          include: ['idb', 'comlink', 'valtio', 'zod', 'react', 'react-dom/client', '@tanstack/react-router', '@mantine/core', '@mantine/hooks', '@conform-to/react', '@conform-to/zod/v4', 'workbox-window'],
        },
        test: {
          name: 'browser',
          include: ['src/**/*.test.{ts,tsx}', 'sw/**/*.test.ts'],
          browser: { enabled: true, provider: chromium, headless: true, instances: [{ browser: 'chromium' }] },
        },
      },
      // Whole-process checks of `npm start` that do not depend on the database kind.
      { test: { name: 'process', include: ['tests/process/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 60_000 } },
      // Two server processes on one PostgreSQL database.
      { test: { name: 'replicas', include: ['tests/replicas/**/*.test.ts'], env: { TEST_DATABASE: 'postgres' }, testTimeout: 60_000, hookTimeout: 90_000 } },
      { test: { name: 'sqlite', include: integration, env: { TEST_DATABASE: 'sqlite' }, ...integrationOptions } },
      { test: { name: 'postgres', include: integration, env: { TEST_DATABASE: 'postgres' }, ...integrationOptions } },
    ],
  },
});
