import { queryOptions } from '@tanstack/react-query';
import { farmerEquipmentContracts as c } from '@shared/api/actions/farmer-equipment';
import type { EquipmentItem } from '@shared/entities/equipment';
import { DASHBOARD_REFRESH_MS } from '@shared/constants';
import type { ApiClient } from '../../../lib/api-client';

/** EQUIPMENT_GET (farmer §2.13): the farm's plant as items, every vat included. */
export const equipmentQuery = (client: ApiClient, farmId: string) =>
  queryOptions({
    queryKey: ['equipment', farmId],
    queryFn: ({ signal }) => client.call(c.EQUIPMENT_GET, { farm: farmId }, { signal }),
  });

/** EQUIPMENT_DATA_GET: the vats' live values for the diagram's labels, refreshed every 120 s like the dashboard (§9). */
export const equipmentDataQuery = (client: ApiClient, farmId: string) =>
  queryOptions({
    queryKey: ['equipment-data', farmId],
    queryFn: ({ signal }) => client.call(c.EQUIPMENT_DATA_GET, { farm: farmId }, { signal }),
    refetchInterval: DASHBOARD_REFRESH_MS,
  });

/** EQUIPMENT_UPDATE: the farm's whole set replaces the stored one; answers the set as stored. */
export const saveEquipment = (client: ApiClient, farmId: string, items: readonly EquipmentItem[]) =>
  client.call(c.EQUIPMENT_UPDATE, { farm: farmId, equipment: items });
