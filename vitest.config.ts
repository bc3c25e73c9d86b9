import { defineConfig } from 'vitest/config';

// Integration tests run twice: once on SQLite, once on PostgreSQL (TEST_DATABASE picks).
const integration = ['tests/integration/**/*.test.ts'];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['contract/**/*.test.ts', 'server/**/*.test.ts', 'src/**/*.test.{ts,tsx}', 'sw/**/*.test.ts'],
        },
      },
      { test: { name: 'sqlite', include: integration, env: { TEST_DATABASE: 'sqlite' }, testTimeout: 30_000, hookTimeout: 60_000 } },
      // Whole-process checks of `npm start` that do not depend on the database kind.
      { test: { name: 'process', include: ['tests/process/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 60_000 } },
      { test: { name: 'postgres', include: integration, env: { TEST_DATABASE: 'postgres' }, testTimeout: 30_000, hookTimeout: 60_000 } },
    ],
  },
});
