import type { Plugin } from 'vite';
import type { BundleFacts, ChunkFacts } from './route-budget.ts';

/**
 * The chunks of `modules` and what they import statically, less what the entry already brings
 * (Vite preloads the entry's own imports): the files index.html should preload.
 */
export const preloadFiles = (bundle: BundleFacts, modules: readonly string[]): string[] => {
  const chunks = Object.values(bundle).filter((c): c is ChunkFacts => c.type === 'chunk');
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const closure = (roots: readonly ChunkFacts[]): Set<string> => {
    const seen = new Set<string>();
    const stack = [...roots];
    for (let c = stack.pop(); c !== undefined; c = stack.pop()) {
      if (seen.has(c.fileName)) continue;
      seen.add(c.fileName);
      for (const f of c.imports) {
        const imported = byFile.get(f);
        if (imported) stack.push(imported);
      }
    }
    return seen;
  };
  const entry = closure(chunks.filter((c) => c.isEntry));
  const wanted = modules.map((id) => {
    const chunk = chunks.find((c) => c.facadeModuleId === id) ?? chunks.find((c) => c.moduleIds.includes(id));
    if (!chunk) throw new Error(`module preload: no chunk is built from ${id}`);
    return chunk;
  });
  return [...closure(wanted)].filter((f) => !entry.has(f)).sort();
};

/**
 * `<link rel="modulepreload">` in index.html for modules every page loads at start-up by a dynamic
 * import (issue 14: Amplify's session, lib/auth-session.ts `preloadAuth`): they download beside the
 * entry instead of after it has run.
 */
export const modulePreload = (modules: readonly string[]): Plugin => ({
  name: 'vatman:module-preload',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler: (_html, ctx) =>
      preloadFiles((ctx.bundle ?? {}) as unknown as BundleFacts, modules).map((file) => ({
        tag: 'link',
        attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
        injectTo: 'head' as const,
      })),
  },
});
