import { queryOptions } from '@tanstack/react-query';
import { farmerOrganizationContracts as c } from '@shared/api/actions/farmer-organization';
import type { ContractFields } from '@shared/api/contract';
import type { ApiClient, CallOptions } from '../../../lib/api-client';
import type { ApiError } from '../../../lib/api-error';

/**
 * ORGANIZATION_LIST (farmer §2.12, §7): one organization with its lists and Summary, or with no id
 * the caller's organizations. `onError` replaces the snackbar: a missing or foreign organization
 * (403) sends the page to the dashboard (§2.12, §8).
 */
export const organizationQuery = (client: ApiClient, organizationId: string, parentId: string, onError: (error: ApiError) => void) =>
  queryOptions({
    queryKey: ['organization', organizationId, parentId],
    queryFn: ({ signal }) => client.call(c.ORGANIZATION_LIST, { organization_id: organizationId, ...(parentId ? { parent_id: parentId } : {}) }, { signal, onError }),
    retry: false,
  });

type OrganizationForm = Omit<ContractFields<typeof c.ORGANIZATION_EDIT>, '_id' | 'package'>;

export const addOrganization = (client: ApiClient, parentId: string, form: OrganizationForm & { tag: 'Group' | 'Regional' | 'Branch' }) =>
  client.call(c.ORGANIZATION_ADD, { organization_id: parentId, ...form });

export const editOrganization = (client: ApiClient, id: string, form: OrganizationForm) => client.call(c.ORGANIZATION_EDIT, { _id: id, ...form });

export const deleteOrganization = (client: ApiClient, id: string) => client.call(c.ORGANIZATION_DELETE, { _id: id });

/** `options.onError` lets the add-user dialog say the server's words itself (an unregistered email). */
export const addOrganizationUser = (client: ApiClient, organizationId: string, email: string, options?: CallOptions) =>
  client.call(c.ORGANIZATION_USER_ADD, { organization_id: organizationId, email }, options);

export const unlinkOrganizationUser = (client: ApiClient, organizationId: string, userId: string) =>
  client.call(c.ORGANIZATION_USER_UNLINK, { organization_id: organizationId, user_id: userId });
