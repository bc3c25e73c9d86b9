// Lighthouse (npm `lighthouse`) against Debian's Chromium: every page is audited in a browser
// that Playwright launched with a DevTools port, so signed-in pages keep their sign-in.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import type { Page } from 'playwright-core';
import { freePort } from '../../tests/support/server-process';
import { launchWithDebugPort } from './browser';

export type FormFactor = 'desktop' | 'mobile';
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
/** Extra attempts for a run that failed to record (Lighthouse 12 with Chromium 156 sometimes loses the trace: NO_NAVSTART). */
const RETRIES = 2;

export type LighthouseRow = {
  page: string;
  url: string;
  /** The URL Lighthouse ended on (a redirect to sign-in would show here). */
  finalUrl: string;
  performance: number | null;
  accessibility: number | null;
  bestPractices: number | null;
  /** Core timings of the performance run, in ms. */
  metrics: { fcp?: number; lcp?: number; tbt?: number; cls?: number; tti?: number };
  /** Scored audits below 0.9 in the three categories (weighted in their category). */
  failing: Array<{ category: string; id: string; title: string; score: number | null; displayValue?: string; items: string[] }>;
  /** Lighthouse's run warnings (for example, a page that did not settle). */
  warnings: string[];
  /** Performance score of every run (null: the run failed); the row is the run with the median score. */
  performanceRuns: Array<number | null>;
  /** Why a run failed (Lighthouse's runtime error), one line each. */
  failedRuns: string[];
};

export type LighthousePage = {
  name: string;
  path: string;
  /** Runs in the Playwright page before Lighthouse (for example, signing in). */
  prepare?: (page: Page) => Promise<void>;
};

/** A few words about each offending element or issue, so a failing audit says where. */
function itemsOf(details: unknown): string[] {
  const items = (details as { items?: Array<Record<string, unknown>> } | undefined)?.items ?? [];
  return items.slice(0, 8).map((item) => {
    const node = item.node as { selector?: string; snippet?: string; explanation?: string } | undefined;
    if (node) return `${node.selector ?? ''} ${node.snippet ?? ''}${node.explanation ? ` — ${node.explanation.split('\n')[0]}` : ''}`.trim();
    const sub = (item.subItems as { items?: Array<Record<string, unknown>> } | undefined)?.items;
    return `${String(item.issueType ?? item.url ?? item.description ?? '')}${sub ? ` ${JSON.stringify(sub.slice(0, 3))}` : ''}`.slice(0, 300);
  });
}

const score = (value: number | null | undefined) => (value === null || value === undefined ? null : Math.round(value * 100));

/**
 * Audits `pages` one after another, `runs` times each, every run in its own fresh browser
 * profile; storage is reset by Lighthouse only for pages without a `prepare` step (those are cold
 * first visits). Each page's row is its run with the median performance score.
 */
export async function runLighthouse(baseUrl: string, pages: LighthousePage[], formFactor: FormFactor, runs = 3): Promise<LighthouseRow[]> {
  const rows: LighthouseRow[] = [];
  for (const target of pages) {
    const attempts: LighthouseRow[] = [];
    const failedRuns: string[] = [];
    for (let i = 0; i < runs; i++) {
      // A run Lighthouse could not record (it says to run it again) is retried, and reported.
      for (let tries = 0; ; tries++) {
        const attempt = await auditOnce(baseUrl, target, formFactor);
        failedRuns.push(...attempt.failedRuns.map((why) => `run ${i + 1}: ${why}`));
        if (attempt.failedRuns.length === 0 || tries === RETRIES) {
          attempts.push(attempt);
          break;
        }
      }
    }
    const sorted = [...attempts].sort((a, b) => (a.performance ?? 0) - (b.performance ?? 0));
    rows.push({ ...sorted[Math.floor(sorted.length / 2)]!, performanceRuns: attempts.map((a) => a.performance), failedRuns });
  }
  return rows;
}

async function auditOnce(baseUrl: string, target: LighthousePage, formFactor: FormFactor): Promise<LighthouseRow> {
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'hg-lh-'));
  const port = await freePort();
  const viewport = formFactor === 'desktop' ? { width: 1350, height: 940 } : { width: 412, height: 823 };
  const context = await launchWithDebugPort(userDataDir, port, viewport);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    if (target.prepare) {
      await target.prepare(page);
      await page.goto('about:blank'); // Lighthouse opens its own tab; leave only that one on the app
    }
    const url = `${baseUrl}${target.path}`;
    const result = await lighthouse(
      url,
      { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES], disableStorageReset: !!target.prepare, formFactor },
      formFactor === 'desktop' ? desktopConfig : undefined,
    );
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const lhr = result.lhr;
    const failing: LighthouseRow['failing'] = [];
    for (const id of CATEGORIES) {
      for (const ref of lhr.categories[id]?.auditRefs ?? []) {
        const audit = lhr.audits[ref.id];
        if (!audit || ref.weight === 0 || audit.score === null || audit.score >= 0.9) continue;
        failing.push({ category: id, id: ref.id, title: audit.title, score: audit.score, ...(audit.displayValue ? { displayValue: audit.displayValue } : {}), items: itemsOf(audit.details) });
      }
    }
    const numeric = (id: string) => {
      const value = lhr.audits[id]?.numericValue;
      return value === undefined ? undefined : Math.round(id === 'cumulative-layout-shift' ? value * 1000 : value) / (id === 'cumulative-layout-shift' ? 1000 : 1);
    };
    return {
      page: target.name,
      url,
      finalUrl: lhr.finalDisplayedUrl,
      performance: score(lhr.categories.performance?.score),
      accessibility: score(lhr.categories.accessibility?.score),
      bestPractices: score(lhr.categories['best-practices']?.score),
      metrics: { fcp: numeric('first-contentful-paint'), lcp: numeric('largest-contentful-paint'), tbt: numeric('total-blocking-time'), cls: numeric('cumulative-layout-shift'), tti: numeric('interactive') },
      failing,
      warnings: lhr.runWarnings,
      performanceRuns: [],
      // A run that could not measure (no paint, a crashed page) scores null, not a low score.
      failedRuns: lhr.runtimeError ? [`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`] : [],
    };
  } finally {
    await context.close();
    rmSync(userDataDir, { recursive: true, force: true });
  }
}
