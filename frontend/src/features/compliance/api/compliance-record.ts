import { queryOptions } from '@tanstack/react-query';
import { farmerComplianceContracts } from '@shared/api/actions/farmer-compliance';
import type { ApiClient } from '../../../lib/api-client';

/** FARMER_COMPLIANCE_RECORD: the period's milkings judged by the cooling rules; no dates is the current season. */
export const complianceRecordQuery = (client: ApiClient, farmId: string, period: { startDate: string; endDate: string } | null) =>
  queryOptions({
    queryKey: ['farmer-compliance-record', farmId, period?.startDate ?? '', period?.endDate ?? ''],
    queryFn: ({ signal }) =>
      client.call(farmerComplianceContracts.FARMER_COMPLIANCE_RECORD, { farm: farmId, ...(period ?? {}) }, { signal, onError: () => undefined }),
    retry: false,
  });
