import { queryOptions } from '@tanstack/react-query';
import { operatorFleetContracts as c } from '@shared/api/actions/operator-fleet';
import { DASHBOARD_REFRESH_MS } from '@shared/constants';
import type { ApiClient } from '../../../lib/api-client';

/** The fleet overview (FLEET_SUMMARY), refreshed like the dashboards. */
export const fleetSummaryQuery = (client: ApiClient) =>
  queryOptions({
    queryKey: ['fleet', 'summary'],
    queryFn: ({ signal }) => client.call(c.FLEET_SUMMARY, {}, { signal }),
    refetchInterval: DASHBOARD_REFRESH_MS,
  });

/** A UTC day's rejected messages a page at a time, with the dead letters waiting (INGEST_PROBLEMS). */
export const ingestProblemsQuery = (client: ApiClient, day: string, after: string | undefined) =>
  queryOptions({
    queryKey: ['fleet', 'ingest', day, after ?? ''],
    queryFn: ({ signal }) => client.call(c.INGEST_PROBLEMS, { day, ...(after ? { after } : {}) }, { signal }),
  });
