import { describe, expect, it } from 'vitest';
import { build } from '../../../testing/build';
import { chooseFarm, farmLabel, readSelectedFarm, SELECTED_FARM_COOKIE, writeSelectedFarm, type CookieJar } from './selected-farm';

/** A jar that keeps what was written, as the browser's document.cookie shows it back (name=value pairs). */
const jar = (initial = ''): CookieJar & { written: string[] } => {
  const written: string[] = [];
  let shown = initial;
  return {
    written,
    get cookie() {
      return shown;
    },
    set cookie(value: string) {
      written.push(value);
      shown = value.split(';')[0] ?? '';
    },
  };
};

describe('selected-farm cookie (farmer §3 Cookies)', () => {
  it('writes JSON {_id}, valid for 100 years, for the whole site', () => {
    const cookies = jar();
    writeSelectedFarm('farm-2', cookies, new Date('2026-03-01T00:00:00Z'));
    const [written] = cookies.written;
    expect(written).toContain(`${SELECTED_FARM_COOKIE}=${encodeURIComponent('{"_id":"farm-2"}')}`);
    expect(written).toContain('expires=Fri, 01 Mar 2126 00:00:00 GMT');
    expect(written).toContain('path=/');
  });

  it('reads back what it wrote, among other cookies', () => {
    const cookies = jar();
    writeSelectedFarm('farm-3', cookies);
    const withOthers = jar(`seen_promo=1; ${cookies.cookie}; other=x`);
    expect(readSelectedFarm(withOthers)).toBe('farm-3');
  });

  it.each([
    ['no cookie', ''],
    ['not JSON', `${SELECTED_FARM_COOKIE}=farm-1`],
    ['JSON without _id', `${SELECTED_FARM_COOKIE}=${encodeURIComponent('{"id":"farm-1"}')}`],
    ['an empty _id', `${SELECTED_FARM_COOKIE}=${encodeURIComponent('{"_id":""}')}`],
    ['a number _id', `${SELECTED_FARM_COOKIE}=${encodeURIComponent('{"_id":7}')}`],
    ['a cookie whose name only starts the same', `${SELECTED_FARM_COOKIE}x=${encodeURIComponent('{"_id":"farm-1"}')}`],
  ])('%s reads as none stored', (_label, cookie) => {
    expect(readSelectedFarm(jar(cookie))).toBeUndefined();
  });
});

describe('chooseFarm (farmer §4)', () => {
  const farms = [build.farm({ _id: 'a' }), build.farm({ _id: 'b' }), build.farm({ _id: 'c' })];

  it('keeps the stored farm when it is among the farms', () => {
    expect(chooseFarm(farms, 'b')?._id).toBe('b');
  });

  it.each([undefined, 'gone'])('takes the first farm when the stored one is %s', (stored) => {
    expect(chooseFarm(farms, stored)?._id).toBe('a');
  });

  it('has nothing to choose without farms', () => {
    expect(chooseFarm([], 'a')).toBeUndefined();
  });
});

describe('farmLabel (farmer §2.2, §6)', () => {
  const farm = build.farm({ fonterra_id: '31245', name: 'Totara Downs' });

  it('is the farm code for everyone', () => {
    expect(farmLabel(farm, false)).toBe('31245');
    expect(farmLabel(farm, undefined)).toBe('31245');
  });

  it('is the farm name for demo accounts, the code when the farm has no name', () => {
    expect(farmLabel(farm, true)).toBe('Totara Downs');
    expect(farmLabel(build.farm({ fonterra_id: 'FON1' }), true)).toBe('FON1');
  });
});
