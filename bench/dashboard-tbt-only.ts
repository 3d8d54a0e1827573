/**
 * Runs only bench:web's 30-day blocking-time figure (`npx tsx bench/dashboard-tbt-only.ts` after
 * `npm run build:web`); DIST=dir serves another web build, RUNS=n repeats the view (3).
 */
import '../local/quiet-warnings';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { REPO_ROOT } from '../cdk/lib/paths';
import { CHROMIUM_PATH } from '../test/support/browser';
import { startTestStack } from '../test/support/local-stack';
import { benchDashboardTbt, writeDashboardMonth } from './dashboard-tbt';

const stack = await startTestStack(undefined, process.env.DIST ?? join(REPO_ROOT, 'frontend', 'dist'));
const browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking'] });
try {
  await writeDashboardMonth(stack.facts);
  await benchDashboardTbt(browser, stack.facts.web, Number(process.env.RUNS ?? 3));
} finally {
  await browser.close();
  await stack.stop();
}
