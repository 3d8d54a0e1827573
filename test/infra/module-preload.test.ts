import { describe, expect, it } from 'vitest';
import { firstScreenScript, preloadFiles } from '../../frontend/build/module-preload';
import type { BundleFacts, ChunkFacts } from '../../frontend/build/route-budget';

const chunk = (fileName: string, facts: Partial<ChunkFacts> = {}): ChunkFacts => ({ type: 'chunk', fileName, code: '', isEntry: false, facadeModuleId: null, moduleIds: [], imports: [], ...facts });
const bundleOf = (...chunks: ChunkFacts[]): BundleFacts => Object.fromEntries(chunks.map((c) => [c.fileName, c]));

const AMPLIFY = '/app/src/lib/amplify-session.ts';
const BUNDLE = bundleOf(
  chunk('assets/index.js', { isEntry: true, imports: ['assets/react.js'] }),
  chunk('assets/react.js'),
  chunk('assets/amplify-session.js', { facadeModuleId: AMPLIFY, imports: ['assets/index.js', 'assets/orchestrators.js'] }),
  chunk('assets/orchestrators.js', { imports: ['assets/react.js'] }),
  chunk('assets/farmer.js', { moduleIds: ['/app/src/shell.tsx'] }),
);

describe('the files a screen preloads', () => {
  it('the module\'s chunk and its static imports, not what the entry brings (Vite preloads those) nor other chunks', () => {
    expect(preloadFiles(BUNDLE, [AMPLIFY])).toEqual(['assets/amplify-session.js', 'assets/orchestrators.js']);
    expect(preloadFiles(BUNDLE, ['/app/src/shell.tsx'])).toEqual(['assets/farmer.js']);
  });

  it('fails the build when a module has no chunk (renamed, or no longer split)', () => {
    expect(() => preloadFiles(BUNDLE, ['/app/src/gone.ts'])).toThrow(/no chunk is built from \/app\/src\/gone\.ts/);
  });
});

describe('the first-screen script (the dashboard\'s code downloads beside the entry when the page opens there)', () => {
  /** Runs the script as a browser would at `pathname`; the links it added to the head. */
  const run = (source: string, pathname: string) => {
    const head: { rel: string; href: string; crossOrigin: string | null }[] = [];
    const document = { createElement: () => ({ rel: '', href: '', crossOrigin: null }), head: { append: (l: (typeof head)[number]) => head.push(l) } };
    new Function('location', 'document', source)({ pathname }, document);
    return head;
  };
  const source = firstScreenScript(BUNDLE, [{ path: '/dts/dashboard', modules: ['/app/src/shell.tsx', AMPLIFY] }]);

  it('preloads the screen\'s chunks as modules (same-origin, as the entry loads them) at its path, with or without a trailing slash', () => {
    for (const path of ['/dts/dashboard', '/dts/dashboard/']) {
      expect(run(source, path)).toEqual([
        { rel: 'modulepreload', href: '/assets/amplify-session.js', crossOrigin: '' },
        { rel: 'modulepreload', href: '/assets/farmer.js', crossOrigin: '' },
        { rel: 'modulepreload', href: '/assets/orchestrators.js', crossOrigin: '' },
      ]);
    }
  });

  it('preloads nothing at any other path (the sign-in page loads none of the dashboard\'s code)', () => {
    expect(run(source, '/dts/login')).toEqual([]);
    expect(run(source, '/dts/dashboard/extra')).toEqual([]);
  });
});
