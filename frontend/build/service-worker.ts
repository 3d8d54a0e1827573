import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';

/** The worker's source (frontend/build/sw-template.js), its two constants filled in by the build. */
const WORKER = new URL('./sw-template.js', import.meta.url);

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));

/**
 * Modules loaded only on a button, never to open a screen: the compliance record's PDF builder
 * (pdf-lib, about 420 kB) and its Unicode fonts (fontkit, about 860 kB). Caching them at install
 * would cost every farmer's phone over a megabyte of data for a file few of them ever make.
 */
export const ON_DEMAND_MODULES = [
  '/features/compliance/utils/record-pdf.ts',
  '/features/compliance/utils/pdf-fonts.ts',
  // The API reference (/dts/api): Redoc (about 1.2 MB) and the document (600 kB), for integrators, not farmers.
  '/features/api-reference/components/api-reference-page.tsx',
  '/docs/openapi.json',
] as const;

/** The built chunks of the on-demand modules (by the module a chunk stands for). */
export const onDemandFiles = (chunks: readonly { readonly fileName: string; readonly facadeModuleId?: string | null }[]): string[] =>
  chunks.filter((c) => ON_DEMAND_MODULES.some((m) => c.facadeModuleId?.split(sep).join('/').endsWith(m))).map((c) => c.fileName);

/** What the worker caches at install: the built files and the public folder's, without source maps or the on-demand chunks. */
export const precacheList = (bundleFiles: readonly string[], publicFiles: readonly string[], onDemand: readonly string[] = []): string[] =>
  [
    ...new Set([
      '/index.html',
      ...[...bundleFiles, ...publicFiles].filter((f) => !f.endsWith('.map') && f !== 'sw.js' && !onDemand.includes(f)).map((f) => `/${f.split(sep).join('/')}`),
    ]),
  ].sort();

/**
 * Writes sw.js (the installable, offline app) beside the build: the worker with the
 * build's file list and a version that changes whenever a file name or index.html does, so a new
 * build replaces the cached shell.
 */
export const serviceWorker = (): Plugin => {
  let config: ResolvedConfig;
  return {
    name: 'vatman-service-worker',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    // After every other plugin's generateBundle: Vite drops the empty JavaScript chunks of
    // CSS-only modules in its own, and a file the worker lists but the build lacks fails its install
    // (CloudFront answers S3's 403 for it).
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const publicDir = config.publicDir;
        const publicFiles = publicDir ? filesUnder(publicDir).map((f) => relative(publicDir, f)) : [];
        // An asset (the API reference's JSON) stands for the file it was made from.
        const chunks = Object.values(bundle).map((b) => ({ fileName: b.fileName, facadeModuleId: b.type === 'chunk' ? b.facadeModuleId : (b.originalFileNames[0] ?? null) }));
        const files = precacheList(Object.keys(bundle), publicFiles, onDemandFiles(chunks));
        const index = bundle['index.html'];
        const indexSource = index && index.type === 'asset' ? String(index.source) : '';
        const version = createHash('sha256').update(JSON.stringify(files)).update(indexSource).digest('hex').slice(0, 16);
        const source = readFileSync(WORKER, 'utf8')
          .replace('self.__VATMAN_PRECACHE__', JSON.stringify(files))
          .replace('self.__VATMAN_VERSION__', JSON.stringify(version));
        this.emitFile({ type: 'asset', fileName: 'sw.js', source });
      },
    },
  };
};
