import { queryOptions } from '@tanstack/react-query';
import { adminDeviceContracts as c, type SeriesAnswer } from '@shared/api/actions/admin-device';
import { DASHBOARD_REFRESH_MS } from '@shared/constants';
import type { ApiClient } from '../../../lib/api-client';
import { takeEarly } from '../../../lib/early-call';

/** /api/admin/device (operator §7) as the fleet screens use it. */
export const deviceListQuery = (client: ApiClient, isRetired: 1 | 2) =>
  queryOptions({
    queryKey: ['devices', 'list', isRetired],
    // Sent early when the page opens here (features/shell/api/early-calls.ts): that answer is taken if fresh.
    queryFn: ({ signal }) => takeEarly(client, c.DEVICE_LIST, { isRetired }, { signal }),
  });

/** The gauges, refreshed like the dashboard (120 s). */
export const deviceOneQuery = (client: ApiClient, deviceId: string) =>
  queryOptions({
    queryKey: ['devices', 'one', deviceId],
    queryFn: ({ signal }) => client.call(c.DEVICE_ONE, { device_id: deviceId }, { signal }),
    refetchInterval: DASHBOARD_REFRESH_MS,
  });

export const deviceRawsQuery = (client: ApiClient, deviceId: string, days: number) =>
  queryOptions({
    queryKey: ['devices', 'raws', deviceId, days],
    queryFn: ({ signal }) => client.call(c.DEVICE_ONE_RAWS, { device_id: deviceId, days }, { signal }),
  });

/** A series window: ending now (DEVICE_ONE_SERIES, counted back in hours) or between two instants (paging). */
export type SeriesWindow = { readonly kind: 'latest'; readonly hours: number } | { readonly kind: 'range'; readonly start: number; readonly end: number };

/** A paged window: its readings (DEVICE_ONE_SERIES_TIME_RANGE, the spec's list) and its figures beside them. */
const rangeSeries = async (client: ApiClient, fields: { device_id: string; start: string; end: string; points?: number }, signal: AbortSignal): Promise<SeriesAnswer> => {
  const [vat, window] = await Promise.all([client.call(c.DEVICE_ONE_SERIES_TIME_RANGE, fields, { signal }), client.call(c.DEVICE_ONE_SERIES_WINDOW, fields, { signal })]);
  return { ...window, vat };
};

/** `points`: the charts' width in pixels, so the server answers at most two readings a pixel. */
export const deviceSeriesQuery = (client: ApiClient, deviceId: string, window: SeriesWindow, points?: number) =>
  queryOptions({
    queryKey: ['devices', 'series', deviceId, window, points],
    queryFn: ({ signal }) =>
      window.kind === 'latest'
        ? client.call(c.DEVICE_ONE_SERIES, { device_id: deviceId, days1: Math.floor(window.hours / 24), hours1: window.hours % 24, days2: 0, hours2: 0, ...(points ? { points } : {}) }, { signal })
        : rangeSeries(client, { device_id: deviceId, start: new Date(window.start).toISOString(), end: new Date(window.end).toISOString(), ...(points ? { points } : {}) }, signal),
  });

export const setDeviceStatus = (client: ApiClient, deviceId: string, status: 1 | 2) => client.call(c.DEVICE_EDIT, { device_id: deviceId, status });
export const loadNames = (client: ApiClient) => client.call(c.DEVICE_LOAD_NAME, {});
export const rawMessage = (client: ApiClient, id: string) => client.call(c.DEVICE_ONE_RAW, { _id: id });

/**
 * The fleet's changes (retire, restore, names, vat settings), newest first, a page from `cursor`.
 * Admin only: an Installer's 403 is expected and quiet (the page leaves the section out), and any
 * other failure is told in the section, not the snackbar.
 */
export const deviceAuditQuery = (client: ApiClient, cursor: string | undefined) =>
  queryOptions({
    queryKey: ['devices', 'audit', cursor ?? null],
    queryFn: ({ signal }) => client.call(c.DEVICE_AUDIT_LIST, cursor ? { cursor } : {}, { signal, onError: () => undefined }),
    retry: false,
  });
