import { describe, expect, it } from 'vitest';
import { firstScreenGroup, firstScreenModules, staticClosure, type ModuleGraph } from '../../frontend/build/first-screen-chunk';

/** A module graph: each module's static imports. */
const graphOf = (imports: Record<string, string[]>): ModuleGraph => ({
  getModuleInfo: (id) => (id in imports ? { importedIds: imports[id] ?? [] } : null),
});

const GRAPH = graphOf({
  '/src/main.tsx': ['/src/app.tsx', '/nm/react/index.js'],
  '/src/app.tsx': ['/nm/react/index.js', '/src/lib/api-client.ts'],
  '/src/shell.tsx': ['/nm/react/index.js', '/src/lib/api-client.ts', '/src/lib/query.ts', '/shared/user.ts'],
  '/src/dashboard.tsx': ['/src/lib/query.ts', '/shared/farmer-activity.ts', '/src/shell.tsx'],
  '/shared/user.ts': ['/nm/zod/v4/index.js'],
  '/shared/farmer-activity.ts': ['/nm/zod/v4/index.js', '/shared/user.ts'],
  '/nm/zod/v4/index.js': ['/nm/zod/v4/core.js'],
  '/src/lib/query.ts': [],
});
const CHUNK = { name: 'farmer', entry: '/src/main.tsx', roots: ['/src/shell.tsx', '/src/dashboard.tsx'], leaveOut: /[\\/]nm[\\/]zod[\\/]/ };

describe('the first screen chunk (one chunk for the dashboard, not 30-odd)', () => {
  it('takes what the screen imports statically, less the entry\'s modules and the libraries left out', () => {
    expect(staticClosure(['/src/main.tsx'], GRAPH)).toEqual(new Set(['/src/main.tsx', '/src/app.tsx', '/nm/react/index.js', '/src/lib/api-client.ts']));
    expect([...firstScreenModules(CHUNK, GRAPH)].sort()).toEqual(['/shared/farmer-activity.ts', '/shared/user.ts', '/src/dashboard.tsx', '/src/lib/query.ts', '/src/shell.tsx']);
  });

  it('is a Rolldown group naming those modules and no others, their imports not pulled in', () => {
    const group = firstScreenGroup(CHUNK);
    expect(group.includeDependenciesRecursively).toBe(false);
    expect(group.name('/src/dashboard.tsx', GRAPH)).toBe('farmer');
    expect(group.name('/shared/user.ts', GRAPH)).toBe('farmer');
    expect(group.name('/nm/react/index.js', GRAPH)).toBeNull();
    expect(group.name('/nm/zod/v4/core.js', GRAPH)).toBeNull();
    expect(group.name('/src/other-page.tsx', GRAPH)).toBeNull();
  });
});
