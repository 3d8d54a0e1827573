import { describe, expect, it } from 'vitest';
import { derInteger } from './local-ca';

describe('derInteger (the local CA’s DER encoder)', () => {
  it.each([
    ['00 12 34', '02 02 12 34'],
    ['00 00 ff', '02 02 00 ff'],
    ['7f 01', '02 02 7f 01'],
    ['80 01', '02 03 00 80 01'],
    ['00', '02 01 00'],
  ])('%s → %s (minimal, positive: a serial starting with 0x00 once made an invalid certificate)', (input, der) => {
    const hex = (s: string) => Buffer.from(s.replace(/ /g, ''), 'hex');
    expect(derInteger(hex(input)).toString('hex')).toBe(hex(der).toString('hex'));
  });
});
