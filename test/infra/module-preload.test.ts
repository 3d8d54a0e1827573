import { describe, expect, it } from 'vitest';
import { preloadFiles } from '../../frontend/build/module-preload';
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

describe('index.html preloads what every page loads at start-up (issue 14)', () => {
  it('the module\'s chunk and its static imports, not what the entry brings (Vite preloads those) nor other chunks', () => {
    expect(preloadFiles(BUNDLE, [AMPLIFY])).toEqual(['assets/amplify-session.js', 'assets/orchestrators.js']);
    expect(preloadFiles(BUNDLE, ['/app/src/shell.tsx'])).toEqual(['assets/farmer.js']);
  });

  it('fails the build when a module has no chunk (renamed, or no longer split)', () => {
    expect(() => preloadFiles(BUNDLE, ['/app/src/gone.ts'])).toThrow(/no chunk is built from \/app\/src\/gone\.ts/);
  });
});
