// The PWA's budgets (issue #8) measured in real Chromium: JavaScript on the wire, time to a usable
// Sign In form (cold and warm), admin code-splitting, and Lighthouse scores. A benchmark, never a
// test: it reports figures and whether they meet the targets, it does not fail.
//
// `measurePwa(baseUrl, seed)` runs against a started, seeded server that serves the real build
// (dist/). Run alone (`node --import tsx bench/pwa.ts [--no-lighthouse] [--mobile] [--verbose]`), it builds the
// PWA when stale, starts its own server, seeds it, prints a table and writes bench/pwa-results.json.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launchBrowser, median, precachedScripts, recordScripts, signIn, timeToSignInForm, waitForServiceWorker, type Credentials, type JsLoad } from './pwa/browser';
import { runLighthouse, type FormFactor, type LighthouseRow } from './pwa/lighthouse';

export type PwaSeed = {
  /** An administrator (the first account registered) and a verified user who is not one. */
  admin: Credentials;
  user: Credentials;
  /** A registered service whose redirect_uri accepts `redirectUri`, for the consent screen. */
  service: { clientId: string; redirectUri: string };
};

export type PwaOptions = { samples?: number; formFactor?: FormFactor; lighthouse?: boolean; /** Lighthouse runs per page (median kept). */ lighthouseRuns?: number };

export const TARGETS = { loginJsGzipKB: 250, warmInteractiveMs: 400, lighthouse: { performance: 90, accessibility: 95, bestPractices: 95 } } as const;

export type PwaResults = {
  date: string;
  chromium: string;
  formFactor: FormFactor;
  /** Content-Encoding the server sends for a script when the browser accepts gzip/br (null: none). */
  serverCompression: string | null;
  js: {
    login: JsLoad;
    /** /admin (lands on /admin/api-services) right after an administrator signed in. */
    admin: JsLoad;
    /** What the service worker precaches in the background after the first load. */
    precache: { files: number; bytes: number; gzipBytes: number };
  };
  interactive: { cold: number[]; warm: number[]; coldMedianMs: number; warmMedianMs: number };
  codeSplit: {
    adminChunks: string[];
    nonAdminScripts: string[];
    /** True when a signed-in non-administrator's page never loaded an admin chunk. */
    nonAdminSkipsAdminChunks: boolean;
    /** Admin chunks the service worker's precache downloads for everyone anyway. */
    precachedAdminChunks: string[];
    /** Precached scripts the non-administrator's pages never loaded (admin area, page-mode broker…). */
    precachedUnusedByNonAdmin: { files: string[]; gzipBytes: number };
  };
  lighthouse: LighthouseRow[];
  targets: { loginJs: boolean; warmInteractive: boolean; lighthouse: boolean | null };
};

const assetName = (url: string) => new URL(url).pathname;

/** The Content-Encoding the server answers with for `url` when the client accepts compression. */
const contentEncoding = (url: string) =>
  new Promise<string | null>((resolve, reject) => {
    const req = httpRequest(url, { headers: { 'accept-encoding': 'gzip, deflate, br' } }, (res) => {
      res.resume();
      resolve((res.headers['content-encoding'] as string | undefined) ?? null);
    });
    req.on('error', reject);
    req.end();
  });

export async function measurePwa(baseUrl: string, seed: PwaSeed, options: PwaOptions = {}): Promise<PwaResults> {
  const samples = options.samples ?? 5;
  const formFactor = options.formFactor ?? 'desktop';
  const html = await (await fetch(`${baseUrl}/auth/login`)).text();
  // The app's module entry (not the tiny classic script before it, too small to be compressed).
  const entry = /<script[^>]+type="module"[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
  if (!entry) throw new Error(`${baseUrl} does not serve the built PWA (no script in /auth/login): start the server without a temporary STATIC_DIR`);
  const serverCompression = await contentEncoding(new URL(entry, baseUrl).href);

  const browser = await launchBrowser();
  try {
    // 1. JavaScript of a first load of /auth/login, and what the precache then fetches.
    const loginContext = await browser.newContext();
    const loginPage = await loginContext.newPage();
    const loginRecorder = recordScripts(loginPage);
    await timeToSignInForm(loginPage, baseUrl);
    await loginPage.waitForLoadState('networkidle');
    const login = await loginRecorder.stop();
    await waitForServiceWorker(loginPage);
    const precached = await precachedScripts(loginPage);
    const precacheBodies = await Promise.all(precached.map(async (url) => Buffer.from(await (await fetch(url)).arrayBuffer())));
    const precacheGzip = new Map(precached.map((url, i) => [assetName(url), gzipSync(precacheBodies[i]!, { level: 6 }).length]));
    const precache = { files: precached.length, bytes: precacheBodies.reduce((t, b) => t + b.length, 0), gzipBytes: [...precacheGzip.values()].reduce((t, n) => t + n, 0) };
    await loginContext.close();

    // 2. Time to a usable Sign In form: cold (fresh context each time), then warm (worker in control).
    const cold: number[] = [];
    for (let i = 0; i < samples; i++) {
      const context = await browser.newContext();
      cold.push(await timeToSignInForm(await context.newPage(), baseUrl));
      await context.close();
    }
    const warmContext = await browser.newContext();
    const warmPage = await warmContext.newPage();
    await timeToSignInForm(warmPage, baseUrl);
    await waitForServiceWorker(warmPage);
    const warm: number[] = [];
    for (let i = 0; i < samples; i++) warm.push(await timeToSignInForm(warmPage, baseUrl));
    await warmContext.close();

    // 3. /admin for an administrator: its chunks are what the login page did not load.
    const adminContext = await browser.newContext();
    const adminPage = await adminContext.newPage();
    await signIn(adminPage, baseUrl, seed.admin);
    const adminRecorder = recordScripts(adminPage);
    await adminPage.goto(`${baseUrl}/admin`);
    await adminPage.waitForURL((url) => url.pathname.startsWith('/admin/api-services'), { timeout: 30_000 });
    await adminPage.getByRole('table').first().waitFor({ timeout: 30_000 });
    await adminPage.waitForLoadState('networkidle');
    const admin = await adminRecorder.stop();
    await adminContext.close();
    const entryScripts = new Set(login.files.map((f) => assetName(f.url)));
    const adminChunks = [...new Set(admin.files.map((f) => assetName(f.url)))].filter((name) => !entryScripts.has(name));

    // 4. A signed-in non-administrator: sign in, then load Home afresh; every script either loaded.
    const userContext = await browser.newContext();
    const userPage = await userContext.newPage();
    const userRecorder = recordScripts(userPage);
    await signIn(userPage, baseUrl, seed.user);
    await userPage.goto(baseUrl);
    await userPage.getByText('Welcome,').first().waitFor({ timeout: 30_000 });
    await userPage.waitForLoadState('networkidle');
    const nonAdminScripts = [...new Set((await userRecorder.stop()).files.map((f) => assetName(f.url)))];
    const precachedNames = new Set((await precachedScripts(userPage)).map(assetName));
    await userContext.close();
    const chromium = browser.version();
    await browser.close();

    // 5. Lighthouse, each page in its own profile; signed-in pages sign in with Playwright first.
    const consentQuery = new URLSearchParams({ client_id: seed.service.clientId, redirect_uri: seed.service.redirectUri, response_type: 'code', scope: 'openid email profile', state: 'bench-state' });
    const lighthouse =
      options.lighthouse === false
        ? []
        : await runLighthouse(
            baseUrl,
            [
              { name: 'Sign In (/auth/login)', path: '/auth/login' },
              { name: 'Consent (/auth?…)', path: `/auth?${consentQuery}`, prepare: (page) => signIn(page, baseUrl, seed.user) },
              { name: 'Home (/)', path: '/', prepare: (page) => signIn(page, baseUrl, seed.user) },
              { name: 'Admin services', path: '/admin/api-services', prepare: (page) => signIn(page, baseUrl, seed.admin) },
            ],
            formFactor,
            options.lighthouseRuns ?? 3,
          );
    const t = TARGETS.lighthouse;
    return {
      date: new Date().toISOString(),
      chromium,
      formFactor,
      serverCompression,
      js: { login, admin, precache },
      interactive: { cold, warm, coldMedianMs: median(cold), warmMedianMs: median(warm) },
      codeSplit: {
        adminChunks,
        nonAdminScripts,
        nonAdminSkipsAdminChunks: adminChunks.length > 0 && !nonAdminScripts.some((name) => adminChunks.includes(name)),
        precachedAdminChunks: adminChunks.filter((name) => precachedNames.has(name)),
        precachedUnusedByNonAdmin: (() => {
          const files = [...precachedNames].filter((name) => !nonAdminScripts.includes(name));
          return { files, gzipBytes: files.reduce((total, name) => total + (precacheGzip.get(name) ?? 0), 0) };
        })(),
      },
      lighthouse,
      targets: {
        loginJs: login.gzipBytes <= TARGETS.loginJsGzipKB * 1024,
        warmInteractive: median(warm) <= TARGETS.warmInteractiveMs,
        lighthouse: lighthouse.length === 0 ? null : lighthouse.every((r) => (r.performance ?? 0) >= t.performance && (r.accessibility ?? 0) >= t.accessibility && (r.bestPractices ?? 0) >= t.bestPractices),
      },
    };
  } finally {
    if (browser.isConnected()) await browser.close();
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const mark = (ok: boolean | null) => (ok === null ? '-' : ok ? 'ok' : 'MISSED');

export function printPwaResults(r: PwaResults, verbose = false): void {
  const sent = r.serverCompression ? `${kb(r.js.login.wireBytes)} transferred (${r.serverCompression}); ${kb(r.js.login.gzipBytes)} as gzip -6` : `${kb(r.js.login.gzipBytes)} as gzip -6 of the bytes sent (the server does not compress), ${kb(r.js.login.wireBytes)} transferred`;
  console.log(`\nHome Guard PWA — Chromium ${r.chromium}, Lighthouse ${r.formFactor}\n`);
  console.log(`JS /auth/login first load: ${sent}, ${kb(r.js.login.bytes)} uncompressed, ${r.js.login.files.length} files  [≤ ${TARGETS.loginJsGzipKB} KB gzip: ${mark(r.targets.loginJs)}]`);
  console.log(`JS /admin (administrator): ${kb(r.js.admin.gzipBytes)} gzip loaded by the page, ${kb(r.js.admin.gzipBytesFromNetwork)} of it from the network (rest from the service worker)`);
  console.log(`Service worker precache:   ${r.js.precache.files} scripts, ${kb(r.js.precache.bytes)} (${kb(r.js.precache.gzipBytes)} gzip), fetched in the background after the first load`);
  console.log(`Sign In form usable: cold median ${r.interactive.coldMedianMs} ms [${r.interactive.cold.join(', ')}], warm median ${r.interactive.warmMedianMs} ms [${r.interactive.warm.join(', ')}]  [warm ≤ ${TARGETS.warmInteractiveMs} ms: ${mark(r.targets.warmInteractive)}]`);
  console.log(`Admin code-split: non-admin loads no admin chunk: ${r.codeSplit.nonAdminSkipsAdminChunks ? 'yes' : 'NO'} (${r.codeSplit.adminChunks.length} admin chunks; ${r.codeSplit.precachedAdminChunks.length} of them precached by the service worker for everyone)`);
  console.log(`  precached but never loaded by the non-admin: ${r.codeSplit.precachedUnusedByNonAdmin.files.length} scripts, ${kb(r.codeSplit.precachedUnusedByNonAdmin.gzipBytes)} gzip`);
  if (r.lighthouse.length > 0) {
    console.log(`\n${'Lighthouse page'.padEnd(26)} perf  a11y  best   FCP    LCP   TBT   CLS  (perf of each run; the median run shown)`);
    for (const row of r.lighthouse) {
      const m = row.metrics;
      console.log(`${row.page.padEnd(26)} ${String(row.performance).padStart(4)}  ${String(row.accessibility).padStart(4)}  ${String(row.bestPractices).padStart(4)}  ${String(m.fcp).padStart(5)}  ${String(m.lcp).padStart(5)}  ${String(m.tbt).padStart(4)}  ${String(m.cls).padStart(4)}  [${row.performanceRuns.map((run) => run ?? 'failed').join(', ')}]`);
      for (const why of row.failedRuns) console.log(`  ! ${why}`);
      if (!row.finalUrl.startsWith(row.url.split('?')[0]!)) console.log(`  ended on ${row.finalUrl}`);
      for (const audit of row.failing) {
        console.log(`  - [${audit.category}] ${audit.id}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
        if (verbose) for (const item of audit.items) console.log(`      ${item}`);
      }
    }
    console.log(`Lighthouse targets (perf ≥ 90, a11y ≥ 95, best practices ≥ 95): ${mark(r.targets.lighthouse)}`);
  }
}

/** Alone: build if stale, start a server on a free port, seed it through the public API, measure. */
async function main(): Promise<void> {
  const repoRoot = path.resolve(import.meta.dirname, '..');
  const { pwaBuildIsStale } = await import('../server/http/pwa-build');
  if (pwaBuildIsStale(repoRoot, path.join(repoRoot, 'dist'))) execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: repoRoot, stdio: 'inherit' });
  const { verifyThroughApi } = await import('../tests/e2e/support/api');
  const { startServerProcess } = await import('../tests/support/server-process');
  const { createTestDatabase } = await import('../tests/support/test-database');
  const database = await createTestDatabase();
  const server = await startServerProcess({ DATA_DIR: database.dataDir, LOG_LEVEL: 'error', ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}) });
  try {
    const call = async (method: string, url: string, body: unknown, token?: string) => {
      const response = await fetch(`${server.url}${url}`, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
      return response.json() as Promise<Record<string, any>>;
    };
    const admin = { name: 'Bench Admin', email: 'admin@bench.test', password: 'Bench-admin1' };
    const user = { name: 'Bench User', email: 'user@bench.test', password: 'Bench-user12' };
    for (const person of [admin, user]) {
      await call('POST', '/api/v1/register', { full_name: person.name, email: person.email, password: person.password });
      await verifyThroughApi(person, server.url, path.join(database.dataDir, 'outbox'));
    }
    const adminToken = (await call('POST', '/api/v1/auth/login', { email: admin.email, password: admin.password })).access as string;
    const redirectUri = 'http://127.0.0.1:9/callback';
    const service = await call('POST', '/api/v1/admin/api-services', { name: 'Bench', description: 'Bench service', redirect_uris: [redirectUri], scopes: ['openid', 'email', 'profile'], grant_types: ['authorization_code'] }, adminToken);
    const results = await measurePwa(server.url, { admin, user, service: { clientId: service.credentials.client_id as string, redirectUri } }, { formFactor: process.argv.includes('--mobile') ? 'mobile' : 'desktop', lighthouse: !process.argv.includes('--no-lighthouse') });
    printPwaResults(results, process.argv.includes('--verbose'));
    writeFileSync(path.join(import.meta.dirname, 'pwa-results.json'), `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    await server.stop();
    await database.drop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
