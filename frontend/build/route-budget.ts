import { gzipSync } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

/**
 * A size budget for the JavaScript a route needs before its screen shows: the entry chunk, the
 * chunks of the route's lazy modules (the shells and the screen the router loads for it), and
 * every chunk those import statically. Chunks they import dynamically (the milk dashboard's
 * chart.js) load after the screen shows and are not counted.
 */
export interface RouteBudget {
  /** The route as the user types it, for the report. */
  readonly route: string;
  /** Absolute paths of the modules the router loads lazily for the route, outermost first. */
  readonly lazyModules: readonly string[];
  /** The most gzipped bytes allowed. */
  readonly maxGzipBytes: number;
}

/** The part of a Rollup/Rolldown output chunk this reads, so a test can hand in a fake bundle. */
export interface ChunkFacts {
  readonly type: 'chunk';
  readonly fileName: string;
  readonly code: string;
  readonly isEntry: boolean;
  readonly facadeModuleId: string | null;
  /** Every module the chunk holds (a chunk grouped by the build's codeSplitting holds several screens). */
  readonly moduleIds: readonly string[];
  readonly imports: readonly string[];
}
export type BundleFacts = Readonly<Record<string, ChunkFacts | { readonly type: 'asset' }>>;

export interface RouteSize {
  readonly route: string;
  /** Each counted chunk with its gzipped size, largest first. */
  readonly files: readonly { readonly fileName: string; readonly gzipBytes: number }[];
  readonly gzipBytes: number;
  readonly maxGzipBytes: number;
}

const isChunk = (item: ChunkFacts | { readonly type: 'asset' }): item is ChunkFacts => item.type === 'chunk';

/** gzip at zlib's default level, as a static host compresses and as Vite's own size table counts. */
const gzipBytes = (code: string): number => gzipSync(code).length;

/**
 * The route's initial JavaScript in a bundle. Throws when the bundle has no single entry or a
 * lazy module has no chunk of its own (renamed, or no longer loaded lazily): a budget that no
 * longer finds its screen must fail loudly, not pass by measuring nothing.
 */
export const routeInitialSize = (bundle: BundleFacts, budget: RouteBudget): RouteSize => {
  const chunks = Object.values(bundle).filter(isChunk);
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const entries = chunks.filter((c) => c.isEntry);
  if (entries.length !== 1) throw new Error(`route budget ${budget.route}: expected one entry chunk, found ${entries.length}`);
  const lazy = budget.lazyModules.map((id) => {
    const chunk = chunks.find((c) => c.facadeModuleId === id) ?? chunks.find((c) => c.moduleIds.includes(id));
    if (!chunk) throw new Error(`route budget ${budget.route}: no chunk is built from ${id} (renamed, or no longer loaded lazily?)`);
    return chunk;
  });
  const counted = new Set<string>();
  const visit = (chunk: ChunkFacts): void => {
    if (counted.has(chunk.fileName)) return;
    counted.add(chunk.fileName);
    for (const file of chunk.imports) {
      const imported = byFile.get(file);
      if (imported) visit(imported);
    }
  };
  for (const chunk of [...entries, ...lazy]) visit(chunk);
  const files = [...counted]
    .map((fileName) => ({ fileName, gzipBytes: gzipBytes(byFile.get(fileName)?.code ?? '') }))
    .sort((a, b) => b.gzipBytes - a.gzipBytes || a.fileName.localeCompare(b.fileName));
  return { route: budget.route, files, gzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0), maxGzipBytes: budget.maxGzipBytes };
};

const kB = (bytes: number): string => `${(bytes / 1000).toFixed(2)} kB`;

export const isOverBudget = (size: RouteSize): boolean => size.gzipBytes > size.maxGzipBytes;

/** The lines the build prints: the total against the budget, then each chunk counted. */
export const formatRouteSize = (size: RouteSize): string =>
  [
    `${size.route}: initial JavaScript ${kB(size.gzipBytes)} gzipped (budget ${kB(size.maxGzipBytes)})${isOverBudget(size) ? ' OVER BUDGET' : ''}`,
    ...size.files.map((f) => `  ${f.fileName.padEnd(48)} ${kB(f.gzipBytes).padStart(10)}`),
  ].join('\n');

/**
 * Prints each route's initial JavaScript after `vite build` and fails the build when one is over
 * its budget (the milk dashboard at most 250 kB gzipped, its charts loading lazily).
 */
export const routeBudgets = (budgets: readonly RouteBudget[]): Plugin => {
  let config: ResolvedConfig | undefined;
  let report: string[] = [];
  return {
    name: 'vatman:route-budgets',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    generateBundle(_options, bundle) {
      report = [];
      for (const budget of budgets) {
        const size = routeInitialSize(bundle, budget);
        const text = formatRouteSize(size);
        if (isOverBudget(size)) this.error(`${text}\n${budget.route} is over its budget of ${kB(budget.maxGzipBytes)} gzipped: load more of it lazily.`);
        report.push(text);
      }
    },
    // After Vite's own table of files, so the budget lines are the last thing the build prints.
    closeBundle() {
      if (report.length > 0) config?.logger.info(`\n${report.join('\n')}`);
    },
  };
};
