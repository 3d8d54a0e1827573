import { describe, expect, it } from 'vitest';
import type { AdminUser } from '@shared/api/actions/admin-user';
import { pageCount, pageOf, roleChoiceOf, searchUsers, splitByRole, withRole } from './users';

const user = (n: number, over: Partial<AdminUser> = {}): AdminUser => ({
  _id: `u${n}`,
  firstName: `First${n}`,
  lastName: `Last${n}`,
  email: `user${n}@example.nz`,
  phone: `+6421000${String(n).padStart(3, '0')}`,
  created_at: '2026-01-01T00:00:00.000Z',
  role: 'User',
  partner_roles: [],
  is_herd_enabled: 0,
  ...over,
});

describe('users page rules (operator §2, §5, §9)', () => {
  it('splits Admins, Installers and everyone else', () => {
    const { admins, installers, others } = splitByRole([user(1, { role: 'Admin' }), user(2, { role: 'Installer' }), user(3, { role: 'Milk Quality', partner_roles: ['Milk Quality'] }), user(4)]);
    expect([admins.map((u) => u._id), installers.map((u) => u._id), others.map((u) => u._id)]).toEqual([['u1'], ['u2'], ['u3', 'u4']]);
  });

  it('searches first name, last name, email and phone, ignoring case', () => {
    const list = [user(1, { firstName: 'Aroha' }), user(2, { lastName: 'NGATA' }), user(3, { email: 'tom@farm.nz' }), user(4, { phone: '+64219999' })];
    expect(searchUsers(list, 'aroha').map((u) => u._id)).toEqual(['u1']);
    expect(searchUsers(list, 'ngata').map((u) => u._id)).toEqual(['u2']);
    expect(searchUsers(list, 'TOM@').map((u) => u._id)).toEqual(['u3']);
    expect(searchUsers(list, '9999').map((u) => u._id)).toEqual(['u4']);
    expect(searchUsers(list, '  ')).toHaveLength(4);
  });

  it('pages by 10', () => {
    const list = Array.from({ length: 23 }, (_, i) => user(i));
    expect(pageCount(23)).toBe(3);
    expect(pageCount(0)).toBe(1);
    expect(pageOf(list, 3).map((u) => u._id)).toEqual(['u20', 'u21', 'u22']);
    expect(pageOf(list, 9)).toEqual(pageOf(list, 3));
  });

  it('keeps a partner membership when the menu makes its holder a User', () => {
    const mq = user(1, { role: 'Installer', partner_roles: ['Milk Quality'] });
    expect(withRole(mq, 'User').role).toBe('Milk Quality');
    expect(roleChoiceOf(withRole(mq, 'User'))).toBe('User');
    expect(withRole(user(2), 'Admin').role).toBe('Admin');
  });
});
