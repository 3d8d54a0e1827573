import { describe, expect, it } from 'vitest';
import { build } from '../../../testing/build';
import { herdUrl, menuItems } from './menu';

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

describe('menuItems by role (farmer §2.2)', () => {
  const labels = (role: string, herd?: string) => menuItems(role, herd).map((item) => item.label);

  it.each([
    ['User', ['Dashboard', 'Milk', 'Alerts']],
    ['Installer', ['Dashboard', 'Milk', 'Alerts']],
    ['Milk Quality', ['Dashboard', 'Milk', 'Alerts']],
    ['Westlands', ['Dashboard', 'Milk', 'Alerts', 'Westlands Data']],
    ['Admin', ['Dashboard', 'Milk', 'Alerts', 'Users', 'Westlands Data']],
  ])('%s', (role, expected) => {
    expect(labels(role)).toEqual(expected);
  });

  it('links each item to its route', () => {
    expect(menuItems('Admin', undefined).map((item) => item.to)).toEqual(['/dashboard', '/dts/dashboard', '/dts/notification', '/dts/users', '/dts/westlandsdata']);
  });

  it('ends with the herd link, external, when there is one', () => {
    expect(menuItems('User', 'https://herd.example?token=t').at(-1)).toEqual({ label: 'Herd', to: 'https://herd.example?token=t', external: true });
  });
});
