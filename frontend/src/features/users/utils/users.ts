import type { AdminUser, RoleChoice } from '@shared/api/actions/admin-user';

/** operator §9: the Users table's page size. */
const USERS_PAGE_SIZE = 10;

/** operator §2: Admins, Installers, and everyone else (Milk Quality and Westlands staff included). */
export const splitByRole = (users: readonly AdminUser[]) => ({
  admins: users.filter((u) => u.role === 'Admin'),
  installers: users.filter((u) => u.role === 'Installer'),
  others: users.filter((u) => u.role !== 'Admin' && u.role !== 'Installer'),
});

/** operator §5: case-insensitive substring of first name, last name, email or phone. */
export const searchUsers = (users: readonly AdminUser[], keyword: string): AdminUser[] => {
  const k = keyword.trim().toLowerCase();
  if (!k) return [...users];
  return users.filter((u) => [u.firstName, u.lastName, u.email, u.phone].some((v) => v.toLowerCase().includes(k)));
};

export const pageCount = (total: number): number => Math.max(1, Math.ceil(total / USERS_PAGE_SIZE));
/** Page `page` (1-based) of `users`, clamped to the pages there are. */
export const pageOf = <T,>(users: readonly T[], page: number): T[] => {
  const p = Math.min(Math.max(1, page), pageCount(users.length));
  return users.slice((p - 1) * USERS_PAGE_SIZE, p * USERS_PAGE_SIZE);
};

/** What the role menu marks as current: Milk Quality and Westlands staff are Users there. */
export const roleChoiceOf = (u: AdminUser): RoleChoice => (u.role === 'Admin' || u.role === 'Installer' ? u.role : 'User');

/** The user after a role choice, as the server will answer it (the table changes at once, operator §4). */
export const withRole = (u: AdminUser, choice: RoleChoice): AdminUser => ({
  ...u,
  role: choice === 'User' ? (u.partner_roles[0] ?? 'User') : choice,
});
