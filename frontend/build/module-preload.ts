import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';
import type { BundleFacts, ChunkFacts } from './route-budget.ts';

/**
 * The chunks of `modules` and what they import statically, less what the entry already brings
 * (Vite preloads the entry's own imports): the files a screen's first load should preload.
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

/** A screen index.html can preload the code of when the page opens at its path. */
export interface FirstScreenPreload {
  /** The path as the browser has it (`location.pathname`). */
  readonly path: string;
  /** The modules the router loads lazily for it (build/route-budgets.ts). */
  readonly modules: readonly string[];
}

/**
 * The classic script that adds `<link rel="modulepreload">` for the screen the page opened at: its
 * chunks start downloading beside the entry, before the entry has run and made the router. Not
 * inline (the CSP allows none); index.html is one file for every path, so the script decides.
 */
export const firstScreenScript = (bundle: BundleFacts, screens: readonly FirstScreenPreload[]): string => {
  const files = Object.fromEntries(screens.map((s) => [s.path, preloadFiles(bundle, s.modules).map((f) => `/${f}`)]));
  return `(()=>{const f=${JSON.stringify(files)}[location.pathname.replace(/\\/+$/,'')];for(const h of f||[]){const l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=h;document.head.append(l)}})();\n`;
};

const scriptName = (source: string): string => `assets/first-screen-${createHash('sha256').update(source).digest('base64url').slice(0, 8)}.js`;

/** Writes the first-screen script (assets/first-screen-<hash>.js) and loads it from index.html, async, before the entry. */
export const firstScreenPreload = (screens: readonly FirstScreenPreload[]): Plugin => ({
  name: 'vatman:first-screen-preload',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler: (_html, ctx) => [
      { tag: 'script', attrs: { async: true, src: `/${scriptName(firstScreenScript((ctx.bundle ?? {}) as unknown as BundleFacts, screens))}` }, injectTo: 'head-prepend' as const },
    ],
  },
  generateBundle(_options, bundle) {
    const source = firstScreenScript(bundle as unknown as BundleFacts, screens);
    this.emitFile({ type: 'asset', fileName: scriptName(source), source });
  },
});
