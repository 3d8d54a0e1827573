import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** docs/architecture.md is a map: short, and its decision index names every decision file and only those. */
const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url));
const map = readFileSync(`${DOCS}architecture.md`, 'utf8');

describe('the architecture map', () => {
  it('stays a map: at most 300 lines', () => {
    expect(map.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('indexes every decision file, and every decision it links exists', () => {
    const files = readdirSync(`${DOCS}decisions`).filter((f) => f.endsWith('.md'));
    expect(files.filter((f) => !map.includes(`(decisions/${f})`))).toEqual([]);
    const linked = [...map.matchAll(/\(decisions\/([^)]+\.md)\)/g)].map((m) => m[1] as string);
    expect(linked.filter((f) => !existsSync(`${DOCS}decisions/${f}`))).toEqual([]);
  });
});
