import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hashSourceTree, ViteLocalBuild } from '../../cdk/lib/frontend-asset';
import { REPO_ROOT } from '../../cdk/lib/paths';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(path.join(tmpdir(), 'vat-man-web-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const write = (root: string, file: string, content: string): void => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), content);
};

describe('frontend asset hash', () => {
  it('changes when a source file in frontend/ or shared/ changes, not when the build output does', () => {
    const root = tempDir();
    write(root, 'frontend/src/main.tsx', 'a');
    write(root, 'shared/config.ts', 'b');
    const inputs = ['frontend', 'shared'];
    const first = hashSourceTree(root, inputs);
    expect(hashSourceTree(root, inputs)).toBe(first);

    write(root, 'frontend/dist/index.html', 'built');
    write(root, 'frontend/node_modules/x/index.js', 'dep');
    expect(hashSourceTree(root, inputs)).toBe(first);

    write(root, 'shared/config.ts', 'changed');
    const second = hashSourceTree(root, inputs);
    expect(second).not.toBe(first);

    write(root, 'frontend/src/new-file.ts', '');
    expect(hashSourceTree(root, inputs)).not.toBe(second);
  });
});

describe('ViteLocalBuild', () => {
  it('builds the app with Vite into the asset output folder', () => {
    // A tiny dependency-free project; Vite itself comes from the repository's node_modules.
    const project = tempDir();
    write(project, 'index.html', '<!doctype html><html><body><script type="module" src="./main.js"></script></body></html>');
    write(project, 'main.js', 'document.body.append("vat-man");');
    write(project, 'vite.config.mjs', 'export default { root: import.meta.dirname, logLevel: "silent" };');
    const out = tempDir();

    const built = new ViteLocalBuild(REPO_ROOT, path.relative(REPO_ROOT, path.join(project, 'vite.config.mjs'))).tryBundle(out);

    expect(built).toBe(true);
    expect(readFileSync(path.join(out, 'index.html'), 'utf8')).toMatch(/<script type="module"[^>]*src="\/assets\//);
  });

  it('fails with a readable message when the Vite config is missing', () => {
    const out = tempDir();
    expect(() => new ViteLocalBuild(REPO_ROOT, 'frontend/no-such.config.ts').tryBundle(out)).toThrow(/no-such\.config\.ts is missing/);
    expect(existsSync(path.join(out, 'index.html'))).toBe(false);
  });
});
