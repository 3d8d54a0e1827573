import { queryOptions } from '@tanstack/react-query';
import type * as z from 'zod';
import { agitatorListResponseSchema, collectionListResponseSchema, farmerActivityContracts as c, storageOneResponseSchema } from '@shared/api/actions/farmer-activity';
import { toWireTime } from '@shared/api/actions/farmer-pickup';
import type { ApiClient } from '../../../lib/api-client';

export type StorageOne = z.infer<typeof storageOneResponseSchema>;
export type CollectionList = z.infer<typeof collectionListResponseSchema>;
export type AgitatorList = z.infer<typeof agitatorListResponseSchema>;

/**
 * FARMER_STORAGE_ONE (farmer §2.7): the storage, its farm, vat, readings, agitator stops and the
 * alert it was opened from. A storage the user may not see is a 403: the page says so itself.
 */
export const storageOneQuery = (client: ApiClient, activityId: string, alertId: string | undefined) =>
  queryOptions({
    queryKey: ['farmer-storage-one', activityId, alertId ?? null] as const,
    queryFn: ({ signal }) =>
      client.call(c.FARMER_STORAGE_ONE, { activity_id: activityId, alert_id: alertId ?? '' }, { signal, onError: () => undefined }),
    retry: false,
  });

/** FARMER_COLLECTION_LIST (/dts/collection): the detected collections of 30 days, page 1 the latest. */
export const collectionListQuery = (client: ApiClient, farmId: string, page: number) =>
  queryOptions({
    queryKey: ['farmer-collection-list', farmId, page] as const,
    queryFn: ({ signal }) => client.call(c.FARMER_COLLECTION_LIST, { farm: farmId, page_index: page }, { signal }),
  });

/** FARMER_AGITATOR_LIST (/dts/agitator): the agitator stop periods of 30 days, page 1 the latest. */
export const agitatorListQuery = (client: ApiClient, farmId: string, page: number) =>
  queryOptions({
    queryKey: ['farmer-agitator-list', farmId, page] as const,
    queryFn: ({ signal }) => client.call(c.FARMER_AGITATOR_LIST, { farm: farmId, page_index: page }, { signal }),
  });

/** FARMER_PICKUP_LIST (/dts/collection): the pickups entered on /dts/pickup in the 30 days of page_index, newest first. */
export const pickupListQuery = (client: ApiClient, farmId: string, page: number) =>
  queryOptions({
    queryKey: ['farmer-pickup-list', farmId, page] as const,
    queryFn: ({ signal }) => client.call(c.FARMER_PICKUP_LIST, { farm: farmId, page_index: page }, { signal }),
  });

/** DELETE_PICKUP: the caller's own pickup of that vat and time (§9 wire time); the server refuses anyone else's. */
export const deletePickup = (client: ApiClient, farmId: string, pickup: { readonly vat: number; readonly datetime: string }) =>
  client.call(c.DELETE_PICKUP, { farm_id: farmId, vat: String(pickup.vat), datetime: toWireTime(Date.parse(pickup.datetime)) });

/** The ADD_PICKUP fields as the form sends them (§9: the time as UTC 'YYYY-MM-DD HH:mm:ss'). */
export interface PickupFields {
  readonly farm_id: string;
  readonly vat: string;
  readonly datetime: string;
  readonly volume: string;
  readonly temperature: string;
}

/** ADD_PICKUP (farmer §2.14): answers 'success'; a refusal goes to the snackbar with the server's message. */
export const addPickup = (client: ApiClient, fields: PickupFields) => client.call(c.ADD_PICKUP, { ...fields });
