import { queryOptions } from '@tanstack/react-query';
import { operatorFleetContracts as c, SEARCH_MIN, type SearchHit } from '@shared/api/actions/operator-fleet';
import type { ApiClient } from '../../../lib/api-client';
import { paths } from '../../../config/paths';

/** The top bar's operator search (OPERATOR_SEARCH): one query per text, kept a minute. */
export const operatorSearchQuery = (client: ApiClient, q: string) =>
  queryOptions({
    queryKey: ['operator-search', q],
    queryFn: ({ signal }) => client.call(c.OPERATOR_SEARCH, { q }, { signal }),
    enabled: q.trim().length >= SEARCH_MIN,
    staleTime: 60_000,
  });

/** The next page of one kind's matches. */
export const searchMore = (client: ApiClient, q: string, kind: SearchHit['kind'], after: string) => client.call(c.OPERATOR_SEARCH, { q, kind, after });

/**
 * Where a match opens: a device its page; a farm the Admin farms list on its supply number (an
 * Installer, who has no farms page, the device list on it); a user the Users page on the email.
 */
export const hitPath = (hit: SearchHit, role: string): string => {
  if (hit.kind === 'device') return paths.device.to(hit.key);
  if (hit.kind === 'user') return `${paths.users.to()}?search=${encodeURIComponent(hit.key)}`;
  return role === 'Admin' ? `${paths.farms.to()}?supply=${encodeURIComponent(hit.key)}` : `${paths.devices.to()}?search=${encodeURIComponent(hit.key)}`;
};
