import { describe, expect, it } from 'vitest';
import { csvCell } from './csv';

describe('csvCell', () => {
  it.each([
    ['=SUM(A1)', `'=SUM(A1)`],
    ['+1', `'+1`],
    ['-1', `'-1`],
    ['@cmd', `'@cmd`],
    ['\t=1+1', `'\t=1+1`],
    ['\r=1+1', `"'\r=1+1"`],
    ['Rolling Hills', 'Rolling Hills'],
  ])('%j → %j', (text, cell) => expect(csvCell(text)).toBe(cell));

  it('writes numbers as they are and nothing for no value', () => {
    expect([csvCell(-4.5), csvCell(Number.NaN), csvCell(null), csvCell(undefined)]).toEqual(['-4.5', '', '', '']);
  });
});
