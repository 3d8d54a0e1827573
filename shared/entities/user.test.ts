import { describe, expect, it } from 'vitest';
import { isDairyCompanyFarm } from './farm';
import { normaliseEmail, normalisePhone } from './user';

describe('user fields', () => {
  it('trims and lower-cases emails', () => expect(normaliseEmail('  Aroha@Farm.NZ ')).toBe('aroha@farm.nz'));
  it('stores phones in E.164', () => {
    expect(normalisePhone('021 123 4567')).toBe('+64211234567');
    expect(normalisePhone('+64 21 123 4567')).toBe('+64211234567');
    expect(normalisePhone('0061 412 345 678')).toBe('+61412345678');
  });
});

describe('dairy-company farm ids (farmer spec §5)', () => {
  it.each([
    ['31245', true],
    ['FON50412', true],
    ['fon1', true],
    ['3124', false],
    ['312456', false],
    ['WES118', false],
    ['OCD40721', false],
  ])('%s -> %s', (id, expected) => expect(isDairyCompanyFarm(id)).toBe(expected));
});
