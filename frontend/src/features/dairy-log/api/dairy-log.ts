import { queryOptions } from '@tanstack/react-query';
import { farmerLogFonterraContracts as c } from '@shared/api/actions/farmer-log-fonterra';
import type { ApiClient } from '../../../lib/api-client';

/** FARMER_LOG_FONTERRA (farmer §2.15, §7): per vat the last milking, collection and exception report. */
export const dairyLogQuery = (client: ApiClient, farmId: string) =>
  queryOptions({
    queryKey: ['dairy-log', farmId],
    queryFn: ({ signal }) => client.call(c.FARMER_LOG_FONTERRA, { farm: farmId }, { signal }),
  });

/** DAIRY_EVENT_RESEND (the provider's Admin): the farm's refused reports back in the queue. */
export const resendRefused = (client: ApiClient, farmId: string) => client.call(c.DAIRY_EVENT_RESEND, { farm: farmId });
