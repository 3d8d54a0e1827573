import { fileURLToPath } from 'node:url';
import type { RouteBudget } from './route-budget.ts';

/** Paths relative to the frontend folder. */
const here = (path: string): string => fileURLToPath(new URL(`../${path}`, import.meta.url));

/**
 * The routes' initial JavaScript budgets, gzipped: the build fails
 * over them (vite.config.ts). The milk dashboard's shells and cards within 200 kB, chart.js loading
 * after; the sign-in page within LOGIN_BUDGET_BYTES.
 */
export const DASHBOARD_BUDGET_BYTES = 200_000;
/**
 * /dts/login within 120 kB. The entry holds React, the router, the query cache and the
 * API client; Amplify (lib/auth-session.ts) and the form's zod checks with Amplify's sign-in load
 * after the first paint (see docs/architecture.md, "Performance budgets").
 */
export const LOGIN_BUDGET_BYTES = 120_000;

/** What the router loads lazily for /dts/dashboard, outermost first (also the build's 'farmer' chunk, vite.config.ts). */
export const DASHBOARD_SCREEN_MODULES: readonly string[] = [
  here('src/features/shell/components/farmer-shell.tsx'),
  here('src/features/shell/components/farm-tabs.tsx'),
  here('src/features/milk-dashboard/components/milk-dashboard-page.tsx'),
];

/**
 * What a first load at /dts/dashboard downloads beside the entry (the first-screen script's
 * preloads, vite.config.ts): the screen, start-up's early calls and Amplify's session (the early
 * calls need its token). Counted in the route's budget, since it all downloads before the first paint.
 */
export const DASHBOARD_FIRST_LOAD_MODULES: readonly string[] = [...DASHBOARD_SCREEN_MODULES, here('src/features/shell/api/early-calls.ts'), here('src/lib/amplify-session.ts')];

/** The sign-in page's screen, preloaded at /dts/login (Amplify still loads after the first paint). */
export const LOGIN_FIRST_LOAD_MODULES: readonly string[] = [here('src/features/auth/components/login-page.tsx')];

/** A first load at /dts/compliance: the farmer shell, the farm's tabs, the compliance screen, the early calls and Amplify's session. */
export const COMPLIANCE_FIRST_LOAD_MODULES: readonly string[] = [
  here('src/features/shell/components/farmer-shell.tsx'),
  here('src/features/shell/components/farm-tabs.tsx'),
  here('src/features/compliance/components/compliance-page.tsx'),
  here('src/features/shell/api/early-calls.ts'),
  here('src/lib/amplify-session.ts'),
];

/** A first load at /dts/devices (operators): the shell, the device list, the early calls (the list among them) and Amplify's session. */
export const DEVICES_FIRST_LOAD_MODULES: readonly string[] = [
  here('src/features/shell/components/farmer-shell.tsx'),
  here('src/features/devices/components/device-list-page.tsx'),
  here('src/features/shell/api/early-calls.ts'),
  here('src/lib/amplify-session.ts'),
];

export const ROUTE_BUDGETS: readonly RouteBudget[] = [
  {
    route: '/dts/dashboard',
    lazyModules: DASHBOARD_FIRST_LOAD_MODULES,
    maxGzipBytes: DASHBOARD_BUDGET_BYTES,
  },
  {
    route: '/dts/login',
    lazyModules: [here('src/features/auth/components/login-page.tsx')],
    maxGzipBytes: LOGIN_BUDGET_BYTES,
  },
];
