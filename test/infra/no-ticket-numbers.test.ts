import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Comments say why, never which ticket: "issue 12" or "#12" means nothing to a reader of the
 * repository. Every tracked code file and every document are checked (decisions may cite where a
 * choice came from, and the benchmark history is kept by the brief each run answered).
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TICKET = /\bissues? #?\d+\b|\bticket #?\d+\b|(?:^|[\s(])#\d{1,4}\b(?![\w-])/i;

const checkedFiles = (): string[] =>
  execFileSync('git', ['ls-files', '--', '*.ts', '*.tsx', '*.js', '*.mjs', '*.html', '*.md'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f !== '' && !f.startsWith('docs/decisions/') && f !== 'bench/HISTORY.md' && f !== 'test/infra/no-ticket-numbers.test.ts');

describe('no ticket numbers in the code or the docs', () => {
  it('finds the pattern it looks for', () => {
    expect(TICKET.test('// See issue 12 for why')).toBe(true);
    expect(TICKET.test('fixed in (#12)')).toBe(true);
    expect(TICKET.test("color: '#123456'; page 12; '#root'")).toBe(false);
  });

  it('finds none in a tracked code file or document', () => {
    const files = checkedFiles();
    expect(files.length).toBeGreaterThan(100);
    const hits = files.flatMap((f) =>
      readFileSync(`${ROOT}/${f}`, 'utf8')
        .split('\n')
        .flatMap((line, i) => (TICKET.test(line) ? [`${f}:${i + 1}: ${line.trim().slice(0, 120)}`] : [])),
    );
    expect(hits).toEqual([]);
  });
});
