import { describe, expect, it } from 'vitest';
import type { Role } from '@shared/roles';
import { partnerMenu, partnerProfilePath } from './partner-menu';

const labels = (entries: ReturnType<typeof partnerMenu>) => entries.map((e) => (e.kind === 'link' ? `${e.label} → ${e.to}` : '—'));

describe('partnerMenu (operator §2 Partner shells, §6)', () => {
  it.each<[Role, string[]]>([
    ['Milk Quality', ['Milk Quality → /dts/fonterra/milkquality', '—']],
    ['Admin', ['Milk Quality → /dts/fonterra/milkquality', '—']],
    ['Westlands', []],
    ['Installer', []],
    ['User', []],
  ])('Milk Quality area, %s: %j', (role, expected) => {
    expect(labels(partnerMenu('milk-quality', role, 'fonterra'))).toEqual(expected);
  });

  it.each<[Role, string[]]>([
    ['Westlands', ['Westlands Data → /dts/westlands/data']],
    ['Admin', ['Westlands Data → /dts/westlands/data']],
    ['Milk Quality', []],
    ['Installer', []],
    ['User', []],
  ])('Westlands area, %s: %j', (role, expected) => {
    expect(labels(partnerMenu('westlands', role, 'fonterra'))).toEqual(expected);
  });

  it("links the Milk Quality entry to the URL's dairy company", () => {
    expect(labels(partnerMenu('milk-quality', 'Milk Quality', 'synlait'))).toEqual(['Milk Quality → /dts/synlait/milkquality', '—']);
  });
});

describe('partnerProfilePath', () => {
  it("is the area's own profile page", () => {
    expect(partnerProfilePath('milk-quality', 'synlait')).toBe('/dts/synlait/profile');
    expect(partnerProfilePath('westlands', 'fonterra')).toBe('/dts/westlands/profile');
  });
});
