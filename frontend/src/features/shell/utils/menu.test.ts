import { describe, expect, it } from 'vitest';
import { build } from '../../../testing/build';
import { herdUrl, isCurrent, menuItems } from './menu';

describe('herdUrl (farmer §2.2, §6)', () => {
  const site = 'https://herd.example/login';

  it('is the site with the encoded token id when herd is enabled and the site configured', () => {
    expect(herdUrl(build.user({ is_herd_enabled: 1, token_id: 'a b/c+d' }), site)).toBe('https://herd.example/login?token=a%20b%2Fc%2Bd');
  });

  it.each([
    ['herd not enabled', build.user({ is_herd_enabled: 0, token_id: 't1' }), site],
    ['no site configured', build.user({ is_herd_enabled: 1, token_id: 't1' }), undefined],
    ['no token id', build.user({ is_herd_enabled: 1 }), site],
  ])('is absent with %s', (_label, user, herdSite) => {
    expect(herdUrl(user, herdSite)).toBeUndefined();
  });
});

describe('menuItems by role (farmer §2.2, operator §6)', () => {
  const labels = (role: string, herd?: string) => menuItems(role, herd).map((item) => item.label);

  it.each([
    ['User', ['Dashboard', 'Milk', 'Alerts']],
    ['Installer', ['Fleet', 'Devices', 'Config', 'New Install', 'Install Log', 'Check Install', 'Help', 'Calibration', 'Watchman']],
    ['Milk Quality', ['Dashboard', 'Milk', 'Alerts']],
    ['Westlands', ['Dashboard', 'Milk', 'Alerts', 'Westlands Data']],
    ['Admin', ['Dashboard', 'Milk', 'Alerts', 'Fleet', 'Users', 'Devices', 'Farms', 'Config', 'New Install', 'Install Log', 'Check Install', 'Help', 'Calibration', 'Watchman', 'Milk Quality', 'Westlands Data']],
  ])('%s', (role, expected) => {
    expect(labels(role)).toEqual(expected);
  });

  it('links each item to its route', () => {
    expect(menuItems('Admin', undefined).map((item) => item.to)).toEqual([
      '/dashboard',
      '/dts/dashboard',
      '/dts/notification',
      '/dts/fleet',
      '/dts/users',
      '/dts/devices',
      '/dts/farms',
      '/dts/installer/config',
      '/dts/installer/new',
      '/dts/installer/log',
      '/dts/installer/check',
      '/dts/installer/help',
      '/dts/calibration',
      '/dts/watchman',
      '/dts/milkquality',
      '/dts/westlandsdata',
    ]);
  });

  it.each([
    ['/dts/dashboard', 'Milk'],
    ['/dts/equipment', 'Milk'],
    ['/dts/milking/dev-1~milking~2026-01-01T00:00:00.000Z', 'Milk'],
    ['/dts/setting/alert', 'Milk'],
    ['/dts/notification', 'Alerts'],
    ['/dts/device/dev-1', 'Devices'],
    ['/dts/virtual', 'Devices'],
    ['/dts/installer/log', 'Install Log'],
    ['/dts/fleet', 'Fleet'],
  ])('marks the item of %s: %s, and no other', (pathname, label) => {
    expect(menuItems('Admin', undefined).filter((item) => isCurrent(item, pathname)).map((item) => item.label)).toEqual([label]);
  });

  it('ends with the herd link, external, when there is one', () => {
    expect(menuItems('User', 'https://herd.example?token=t').at(-1)).toEqual({ label: 'Herd', to: 'https://herd.example?token=t', external: true });
  });
});
