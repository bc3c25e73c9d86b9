#!/usr/bin/env node
// `npm test`: every tier in order — type-check, build, unit + integration (SQLite and
// PostgreSQL), end-to-end in Chromium — then one closing tally line for all of them.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const results = path.join(root, 'test-results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

const steps = [];
function step(name, command, args, env = {}) {
  const started = Date.now();
  process.stdout.write(`\n▶ ${name}\n`);
  const run = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = run.status === 0;
  steps.push({ name, ok, seconds: ((Date.now() - started) / 1000).toFixed(1) });
  return ok;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

step('type-check: server, contract, tests', bin('tsc'), ['-p', 'tsconfig.json']);
step('type-check: web app', bin('tsc'), ['-p', 'src/tsconfig.json']);
step('type-check: service worker', bin('tsc'), ['-p', 'sw/tsconfig.json']);
const built = step('build the PWA', bin('vite'), ['build', '--logLevel', 'warn']);
step('unit and integration tests (SQLite and PostgreSQL)', bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${path.join(results, 'vitest.json')}`,
]);
if (built) step('end-to-end tests (Chromium)', bin('playwright'), ['test']);
else steps.push({ name: 'end-to-end tests (Chromium)', ok: false, seconds: '0.0' });

let passed = 0;
let failed = 0;
let skipped = 0;
const vitest = readJson(path.join(results, 'vitest.json'));
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  skipped += vitest.numPendingTests + (vitest.numTodoTests ?? 0);
}
const e2e = readJson(path.join(results, 'e2e.json'));
if (e2e) {
  passed += e2e.stats.expected + e2e.stats.flaky;
  failed += e2e.stats.unexpected;
  skipped += e2e.stats.skipped;
}
// A step that failed without reporting tests (type errors, a broken build) counts as one failure.
for (const s of steps) if (!s.ok && !/tests/.test(s.name)) failed += 1;
if (!existsSync(path.join(results, 'vitest.json')) || (built && !e2e)) failed += 1;

process.stdout.write('\nSummary\n');
for (const s of steps) process.stdout.write(`  ${s.ok ? 'ok  ' : 'FAIL'}  ${s.name} (${s.seconds}s)\n`);
process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(steps.every((s) => s.ok) && failed === 0 ? 0 : 1);
