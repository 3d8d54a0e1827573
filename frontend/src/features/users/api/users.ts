import { queryOptions } from '@tanstack/react-query';
import { adminUserContracts as c, type RoleChoice } from '@shared/api/actions/admin-user';
import type { ApiClient } from '../../../lib/api-client';

/** The list's cache key: the page edits the cached list at once when a menu is used (operator §4). */
export const USERS_LIST_KEY = ['admin-users', 'list'] as const;

/** /api/admin/user (operator §7) as the Users page uses it. */
export const usersQuery = (client: ApiClient) =>
  queryOptions({ queryKey: USERS_LIST_KEY, queryFn: ({ signal }) => client.call(c.USER_LIST, {}, { signal }) });

export const userAuditQuery = (client: ApiClient) =>
  queryOptions({ queryKey: ['admin-users', 'audit'], queryFn: ({ signal }) => client.call(c.USER_AUDIT_LIST, {}, { signal }) });

export const setRole = (client: ApiClient, userid: string, role: RoleChoice) => client.call(c.USER_ROLE_EDIT, { userid, role });
export const setHerd = (client: ApiClient, userid: string, flag: 0 | 1) => client.call(c.USER_HERD_EDIT, { userid, is_herd_enabled: flag });
