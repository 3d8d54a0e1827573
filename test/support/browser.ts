import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { DEMO_PASSWORD } from '../../local/seed/demo-data';
import { totpCode } from '../../local/seed/totp';
import { seededTotpSecret, startTestStack } from './local-stack';

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

/**
 * The stack and Chromium for one browser test file: `run` says whether the file runs (Chromium
 * there); if it does, a beforeAll starts them, before the file's own beforeAll that writes its
 * data, and an afterAll stops them, after the file's own (vitest runs after-hooks in reverse).
 * Read `stack`, `browser` and `web` inside hooks and tests only: they exist once the stack runs.
 */
export const browserTestFile = (name: string) => {
  const run = browserAvailable();
  let env: BrowserStack | undefined;
  beforeAll(async () => {
    if (run) env = await startBrowserStack(name);
  });
  afterAll(async () => env?.stop());
  const started = (): BrowserStack => {
    if (!env) throw new Error(`the ${name} browser stack is not running (read it inside a hook or test)`);
    return env;
  };
  return {
    run,
    get stack() {
      return started().stack;
    },
    get browser() {
      return started().browser;
    },
    get web() {
      return started().web;
    },
  };
};

/** A browser context whose farm cookie (farmer §3) selects `farmId`, at `width` (900 px high unless told). */
export const farmContext = async (browser: Browser, web: string, farmId: string, { width = 1280, height = 900, ...options }: BrowserContextOptions & { width?: number; height?: number } = {}): Promise<BrowserContext> => {
  const context = await browser.newContext({ viewport: { width, height }, ...options });
  await context.addCookies([{ name: 'vatman_farm', value: encodeURIComponent(JSON.stringify({ _id: farmId })), url: web }]);
  return context;
};

/**
 * Fills the sign-in form once it shows and submits it with Enter; for an account with an
 * authenticator app (the demo operators), answers the code step with the current code.
 */
export const signIn = async (page: Page, email: string, password = DEMO_PASSWORD): Promise<void> => {
  await page.getByRole('form', { name: 'Sign in' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Password', { exact: true }).press('Enter');
  const secret = seededTotpSecret(email);
  if (!secret) return;
  const code = page.getByLabel(TOTP_CODE_LABEL);
  await code.waitFor();
  await code.fill(totpCode(secret));
  await code.press('Enter');
};

/** The sign-in's code step field (frontend/src/features/auth/components/login-page.tsx). */
export const TOTP_CODE_LABEL = 'Authenticator code';

/** A full-page screenshot to look at, as vatman-{name}.png in the temp folder. */
export const shot = (page: Page, name: string) => page.screenshot({ path: join(tmpdir(), `vatman-${name}.png`), fullPage: true });

/** Runs `step`; if it fails, leaves a screenshot (vatman-{name}.png) to look at and fails as it did. */
export const withShot = async <T>(page: Page, name: string, step: () => Promise<T>): Promise<T> => {
  try {
    return await step();
  } catch (err) {
    await shot(page, name).catch(() => undefined);
    throw err;
  }
};

/**
 * The milk dashboard draws a chart below the fold only as it nears the screen (
 * frontend/src/components/charts/idle-turn.ts): scrolls the page down, as a farmer would, until
 * the named chart has drawn. The charts passed on the way draw too.
 */
export const scrollToChart = async (page: Page, name: string, timeoutMs = 30_000): Promise<void> => {
  const chart = page.getByRole('img', { name });
  const until = Date.now() + timeoutMs;
  while ((await chart.count()) === 0) {
    if (Date.now() > until) throw new Error(`the chart '${name}' did not draw while scrolling down`);
    await page.evaluate('window.scrollBy(0, 300)');
    await page.waitForTimeout(100);
  }
  await chart.waitFor();
};

/** Goes to the sign-in page, signs in as `email`, waits until the app has left that page, then goes to `path`. */
export const signInAt = async (page: Page, web: string, email: string, path: string): Promise<void> => {
  await page.goto(`${web}/dts/login`);
  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith('/dts/login'));
  await page.goto(`${web}${path}`);
};

/** A page in a new context (1280×900 unless told, the other options as given), signed in as `email`, at `path`. */
export const openAs = async (
  browser: Browser,
  web: string,
  email: string,
  path: string,
  { width = 1280, height = 900, ...options }: BrowserContextOptions & { width?: number; height?: number } = {},
): Promise<Page> => {
  const context = await browser.newContext({ viewport: { width, height }, ...options });
  const page = await context.newPage();
  await signInAt(page, web, email, path);
  return page;
};

/**
 * The source of a browser function: the chart.js instance drawing on the canvas labelled `name`,
 * or null. The bundle exposes no Chart global, so the instance is found through React's fiber of
 * the canvas: react-chartjs-2 keeps it in a ref of the component that renders the canvas.
 */
const FIND_CHART = `(name) => {
  const canvas = document.querySelector('canvas[aria-label="' + name + '"]');
  if (!canvas) return null;
  const key = Object.keys(canvas).find((k) => k.startsWith('__reactFiber$'));
  for (let fiber = key ? canvas[key] : null; fiber; fiber = fiber.return) {
    for (let hook = fiber.memoizedState; hook && typeof hook === 'object' && 'next' in hook; hook = hook.next) {
      const chart = hook.memoizedState && hook.memoizedState.current;
      if (chart && chart.canvas === canvas) return chart;
    }
  }
  return null;
}`;

/**
 * Runs `read`, the source of a browser function `(chart, arg) => value`, on the chart named `name`
 * (chart null when there is none drawn) and answers its value.
 */
export const readChart = <T>(page: Page, name: string, read: string, arg: unknown = null): Promise<T> =>
  page.evaluate(`((findChart) => (${read})(findChart(${JSON.stringify(name)}), ${JSON.stringify(arg)}))(${FIND_CHART})`) as Promise<T>;
