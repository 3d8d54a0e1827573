import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { formatRouteSize, routeBudgets, routeInitialSize, type BundleFacts, type ChunkFacts, type RouteBudget } from '../../frontend/build/route-budget';
import { ROUTE_BUDGETS } from '../../frontend/build/route-budgets';

/**
 * The build's route budget (/dts/dashboard's initial JavaScript at most 250 kB gzipped)
 * on a fake bundle shaped like Vite's: an entry, lazy route chunks, shared chunks they import
 * statically, and a chart chunk imported dynamically.
 */
const chunk = (fileName: string, code: string, facts: Partial<ChunkFacts> = {}): ChunkFacts => ({
  type: 'chunk',
  fileName,
  code,
  isEntry: false,
  facadeModuleId: null,
  moduleIds: [],
  imports: [],
  ...facts,
});

/** Text gzip cannot shrink much: random bytes as base64 (about 3/4 of its length once gzipped). */
const noise = (bytes: number) => randomBytes(bytes).toString('base64');
const gz = (code: string) => gzipSync(code).length;

const SHELL = '/app/src/features/shell/components/farmer-shell.tsx';
const SCREEN = '/app/src/features/milk-dashboard/components/milk-dashboard-page.tsx';

const bundleWith = (screenCode: string): BundleFacts => {
  const files = [
    chunk('assets/index.js', `import './react.js';${noise(2000)}`, { isEntry: true, facadeModuleId: '/app/index.html', imports: ['assets/react.js'] }),
    chunk('assets/react.js', noise(1000)),
    chunk('assets/farmer-shell.js', noise(500), { facadeModuleId: SHELL, imports: ['assets/react.js', 'assets/query.js'] }),
    chunk('assets/milk-dashboard-page.js', screenCode, { facadeModuleId: SCREEN, imports: ['assets/query.js', 'assets/schemas.js'] }),
    chunk('assets/query.js', noise(700)),
    chunk('assets/schemas.js', noise(800), { imports: ['assets/react.js'] }),
    // Only imported dynamically by the screen: loads after it shows.
    chunk('assets/vat-charts-section.js', noise(200_000), { facadeModuleId: '/app/src/features/milk-dashboard/components/vat-charts-section.tsx', imports: ['assets/react.js'] }),
    // Another route's screen.
    chunk('assets/alerts-page.js', noise(50_000), { facadeModuleId: '/app/src/features/alerts/components/alerts-page.tsx', imports: ['assets/react.js'] }),
  ];
  return { ...Object.fromEntries(files.map((f) => [f.fileName, f])), 'assets/index.css': { type: 'asset' } };
};

const budget = (maxGzipBytes = 250_000, lazyModules = [SHELL, SCREEN]): RouteBudget => ({ route: '/dts/dashboard', lazyModules, maxGzipBytes });

describe('routeInitialSize', () => {
  it('counts the entry, the lazy route chunks and what they import statically, once each; not the dynamically loaded charts nor other routes', () => {
    const bundle = bundleWith(noise(600));
    const size = routeInitialSize(bundle, budget());
    expect(size.files.map((f) => f.fileName).sort()).toEqual([
      'assets/farmer-shell.js',
      'assets/index.js',
      'assets/milk-dashboard-page.js',
      'assets/query.js',
      'assets/react.js',
      'assets/schemas.js',
    ]);
    const code = (file: string) => (bundle[file] as ChunkFacts).code;
    for (const f of size.files) expect(f.gzipBytes).toBe(gz(code(f.fileName)));
    expect(size.gzipBytes).toBe(size.files.reduce((sum, f) => sum + f.gzipBytes, 0));
    // Largest first.
    expect(size.files[0]?.fileName).toBe('assets/index.js');
  });

  it('finds lazy modules grouped into one chunk with others (the build groups the dashboard screen: frontend/build/first-screen-chunk.ts)', () => {
    const files = [
      chunk('assets/index.js', noise(2000), { isEntry: true, facadeModuleId: '/app/index.html', imports: ['assets/schemas.js'] }),
      chunk('assets/farmer.js', noise(900), { moduleIds: ['/app/src/lib/x.ts', SHELL, SCREEN], imports: ['assets/schemas.js'] }),
      chunk('assets/schemas.js', noise(800)),
    ];
    const size = routeInitialSize(Object.fromEntries(files.map((f) => [f.fileName, f])), budget());
    expect(size.files.map((f) => f.fileName).sort()).toEqual(['assets/farmer.js', 'assets/index.js', 'assets/schemas.js']);
  });

  it('fails loudly when a lazy module has no chunk (renamed, or bundled into another chunk) or the entry is not one', () => {
    expect(() => routeInitialSize(bundleWith('x'), budget(250_000, [SHELL, '/app/src/gone.tsx']))).toThrow(/no chunk is built from \/app\/src\/gone\.tsx/);
    const twoEntries = { ...bundleWith('x'), 'assets/other.js': chunk('assets/other.js', 'y', { isEntry: true }) };
    expect(() => routeInitialSize(twoEntries, budget())).toThrow(/expected one entry chunk, found 2/);
  });

  it('prints the total against the budget, then each chunk', () => {
    const text = formatRouteSize({ route: '/dts/dashboard', files: [{ fileName: 'assets/index.js', gzipBytes: 113_580 }], gzipBytes: 113_580, maxGzipBytes: 250_000 });
    expect(text.split('\n')[0]).toBe('/dts/dashboard: initial JavaScript 113.58 kB gzipped (budget 250.00 kB)');
    expect(text.split('\n')[1]).toMatch(/^ {2}assets\/index\.js +113\.58 kB$/);
  });
});

describe('the routeBudgets plugin', () => {
  /** Runs the plugin's hooks as Vite would, with a fake plugin context and logger. */
  const build = (bundle: BundleFacts, max: number) => {
    const plugin = routeBudgets([budget(max)]);
    const info = vi.fn();
    const error = vi.fn((message: string) => {
      throw new Error(message);
    });
    const hook = <A extends unknown[]>(h: unknown) => (typeof h === 'function' ? h : (h as { handler: unknown }).handler) as (...args: A) => void;
    hook<[unknown]>(plugin.configResolved).call(undefined, { logger: { info } });
    const run = () => {
      hook<[unknown, BundleFacts, boolean]>(plugin.generateBundle).call({ error }, {}, bundle, false);
      hook<[]>(plugin.closeBundle).call(undefined);
    };
    return { plugin, info, error, run };
  };

  it('runs for builds only and prints the route size after the build', () => {
    const { plugin, info, error, run } = build(bundleWith(noise(600)), 250_000);
    expect(plugin.apply).toBe('build');
    run();
    expect(error).not.toHaveBeenCalled();
    expect(info).toHaveBeenCalledTimes(1);
    expect(info.mock.calls[0]?.[0]).toMatch(/\/dts\/dashboard: initial JavaScript \d+\.\d\d kB gzipped \(budget 250\.00 kB\)\n {2}assets\/index\.js/);
  });

  it('fails the build when the route is over its budget, saying which chunks it counted', () => {
    // A screen that imported chart.js statically: 400 kB of code that gzip cannot shrink below 250 kB.
    const { info, error, run } = build(bundleWith(noise(400_000)), 250_000);
    expect(run).toThrow(/OVER BUDGET[\s\S]*assets\/milk-dashboard-page\.js[\s\S]*\/dts\/dashboard is over its budget of 250\.00 kB gzipped/);
    expect(error).toHaveBeenCalledTimes(1);
    expect(info).not.toHaveBeenCalled();
  });

  it('the limit is inclusive: exactly at the budget passes, one byte over fails', () => {
    const bundle = bundleWith(noise(600));
    const exact = routeInitialSize(bundle, budget()).gzipBytes;
    expect(build(bundle, exact).run).not.toThrow();
    expect(build(bundle, exact - 1).run).toThrow(/OVER BUDGET/);
  });
});

describe('the budgets the build enforces (frontend/build/route-budgets.ts)', () => {
  it('/dts/dashboard at most 200 kB gzipped and /dts/login at most 120 kB, each counting its own screen and what its first load preloads', () => {
    expect(ROUTE_BUDGETS.map((b) => [b.route, b.maxGzipBytes])).toEqual([
      ['/dts/dashboard', 200_000],
      ['/dts/login', 120_000],
    ]);
    expect(ROUTE_BUDGETS.find((b) => b.route === '/dts/login')?.lazyModules.at(-1)).toMatch(/features\/auth\/components\/login-page\.tsx$/);
    // The dashboard counts everything its first load downloads beside the entry: the screen, the early calls and Amplify's session (preloaded there).
    const dashboard = ROUTE_BUDGETS.find((b) => b.route === '/dts/dashboard')?.lazyModules ?? [];
    for (const module of [/features\/milk-dashboard\/components\/milk-dashboard-page\.tsx$/, /features\/shell\/api\/early-calls\.ts$/, /lib\/amplify-session\.ts$/]) expect(dashboard.some((m) => module.test(m)), String(module)).toBe(true);
    // The sign-in page preloads none of it: its budget is its own screen and the entry.
    expect(ROUTE_BUDGETS.find((b) => b.route === '/dts/login')?.lazyModules).toHaveLength(1);
  });
});
