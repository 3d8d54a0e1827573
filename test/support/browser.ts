import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startTestStack } from './local-stack';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Browser tests need Debian's chromium. Without it they are skipped with a notice, unless
 * REQUIRE_BROWSER=1 (CI), where a missing browser fails the run.
 */
export const browserAvailable = (): boolean => {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (process.env.REQUIRE_BROWSER === '1') throw new Error(`REQUIRE_BROWSER=1 but no Chromium at ${CHROMIUM_PATH}`);
  console.warn(`Browser tests skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH).`);
  return false;
};

/** Debian's chromium, never a downloaded browser; the flags keep it off the network. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });

/**
 * The local stack serving the real web build (frontend/dist, made by `npm test` first) and a
 * Chromium beside it: what every browser test file starts once in its beforeAll.
 */
export const startBrowserStack = async (name: string) => {
  // WEB_DIST lets parallel work test its own build (vite build --outDir …) without racing frontend/dist.
  const dist = process.env.WEB_DIST ?? join(process.cwd(), 'frontend', 'dist');
  const stack = await startTestStack(mkdtempSync(join(tmpdir(), `vatman-${name}-`)), dist);
  const browser = await launchChromium();
  return {
    stack,
    browser,
    web: stack.facts.web,
    stop: async () => {
      await browser.close();
      await stack.stop();
    },
  };
};
export type BrowserStack = Awaited<ReturnType<typeof startBrowserStack>>;
