import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { adminFarmContracts as c, type DairyFilter, type FarmFlag, type FinanceFilter, type PackageFilter } from '@shared/api/actions/admin-farm';
import type { ApiClient } from '../../../lib/api-client';
import type { ApiError } from '../../../lib/api-error';

/** The page's filters, carried by every farm call (operator §7); '' (the 'All' choice) means all. */
export interface FarmFilters {
  readonly dairy_current: DairyFilter | '';
  readonly farm_type: PackageFilter | '';
  readonly farm_id: string;
  readonly farm_finance: FinanceFilter | '';
}

export const farmListKey = (f: FarmFilters) => ['admin-farms', 'list', f.dairy_current, f.farm_type, f.farm_id, f.farm_finance] as const;

/** /api/admin/farm (operator §7) as the Farms page uses it. */
export const farmListQuery = (client: ApiClient, f: FarmFilters) =>
  queryOptions({
    queryKey: farmListKey(f),
    queryFn: ({ signal }) => client.call(c.FARM_LIST, { ...f }, { signal }),
    // The cards stay while a new filter loads.
    placeholderData: keepPreviousData,
  });

export const farmSettingsQuery = (client: ApiClient, f: FarmFilters) =>
  queryOptions({ queryKey: ['admin-farms', 'settings'], queryFn: ({ signal }) => client.call(c.FARMS_SETTINGS_GET, { ...f }, { signal }) });

/** Alert deliveries that failed for good, newest first. */
export const deadLettersQuery = (client: ApiClient, f: FarmFilters) =>
  queryOptions({ queryKey: ['admin-farms', 'dead-letters'], queryFn: ({ signal }) => client.call(c.FARM_DELIVERY_DEAD_LETTERS, { ...f }, { signal }) });

export const farmAuditQuery = (client: ApiClient, f: FarmFilters) =>
  queryOptions({ queryKey: ['admin-farms', 'audit'], queryFn: ({ signal }) => client.call(c.FARM_AUDIT_LIST, { ...f }, { signal }) });

const FLAG_CONTRACT = { auto_check: c.FARM_AUTO_CHECK_STATUS, fonterra_api_status: c.FARM_FONTERRA_API_STATUS, harvest: c.FARM_HARVEST_API_STATUS } as const;

/** One checkbox click (operator §4): the new value of that flag for that farm. */
export const setFarmFlag = (client: ApiClient, f: FarmFilters, farmId: string, flag: FarmFlag, value: boolean) => {
  const fields = { ...f, _id: farmId };
  if (flag === 'auto_check') return client.call(FLAG_CONTRACT.auto_check, { ...fields, auto_check: value });
  if (flag === 'fonterra_api_status') return client.call(FLAG_CONTRACT.fonterra_api_status, { ...fields, fonterra_api_status: value });
  return client.call(FLAG_CONTRACT.harvest, { ...fields, harvest: value });
};

export const billingOutput = (client: ApiClient, f: FarmFilters, month: string) => client.call(c.FARM_BILLING_OUTPUT, { ...f, month });

/** The milking-window CSV as a multipart upload (operator §7); a refusal goes to `onError`, not the snackbar. */
export const importSettings = (client: ApiClient, f: FarmFilters, file: File, onError: (error: ApiError) => void) =>
  client.call(c.FARMS_SETTINGS_UPLOAD, { ...f, farms_settings: file }, { onError });
