/**
 * One chunk for a screen's first load. Left to itself the bundler splits the code that
 * the farmer shell and the milk dashboard load together into 30-odd small chunks, one per set of
 * screens sharing each module; over HTTP/1.1 a browser fetches them six at a time, in waves of
 * round trips before the screen can render. This group puts every module the screen's lazy modules
 * import statically into one chunk, but for the entry's own modules (the entry must not import it:
 * the sign-in page would load it) and any left out by a pattern. What the entry's modules reach
 * only through a package's index (React Query's hooks) stays in the bundler's chunks.
 */

/** What the group reads of the module graph (Rolldown's ChunkingContext). */
export interface ModuleGraph {
  getModuleInfo(id: string): { readonly importedIds: readonly string[] } | null;
}

/** Every module `roots` import statically, the roots included. */
export const staticClosure = (roots: readonly string[], graph: ModuleGraph): Set<string> => {
  const seen = new Set<string>();
  const stack = [...roots];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
};

export interface FirstScreenChunk {
  /** The chunk's name (its file is `assets/<name>-<hash>.js`). */
  readonly name: string;
  /** The app's entry module: what it imports statically stays in the entry chunk. */
  readonly entry: string;
  /** The modules the router loads lazily for the screen (build/route-budgets.ts). */
  readonly roots: readonly string[];
  /** Modules left to the bundler's own chunking. */
  readonly leaveOut?: RegExp;
}

/** The modules of the screen's chunk. */
export const firstScreenModules = (chunk: FirstScreenChunk, graph: ModuleGraph): Set<string> => {
  const entry = staticClosure([chunk.entry], graph);
  return new Set([...staticClosure(chunk.roots, graph)].filter((id) => !entry.has(id) && !chunk.leaveOut?.test(id)));
};

/**
 * The Rolldown `output.codeSplitting` group. Only the modules chosen are grouped (not what they
 * import besides: React stays in the entry's chunks).
 */
export const firstScreenGroup = (chunk: FirstScreenChunk) => {
  let modules: Set<string> | undefined;
  return {
    debugName: chunk.name,
    includeDependenciesRecursively: false,
    name: (id: string, graph: ModuleGraph): string | null => {
      modules ??= firstScreenModules(chunk, graph);
      return modules.has(id) ? chunk.name : null;
    },
  };
};
