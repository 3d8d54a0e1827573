import { describe, expect, it } from 'vitest';
import { access } from './contract';

describe('access rules', () => {
  it('names Admin only as access.admin(), and an operator rule always names its groups', () => {
    expect(access.admin()).toEqual({ kind: 'operator', groups: [] });
    expect(access.operator('Installer', 'MilkQuality')).toEqual({ kind: 'operator', groups: ['Installer', 'MilkQuality'] });
    // The typecheck fails unless a group is required (Admin only is access.admin()).
    // @ts-expect-error an operator rule names at least one group
    const _noGroups = () => access.operator();
    expect(_noGroups).toBeTypeOf('function');
  });
});
