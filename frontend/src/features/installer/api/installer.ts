import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { installerContracts as c } from '@shared/api/actions/installer';
import { INSTALL_LOG_PAGE, type LogType } from '@shared/entities/install';
import type { ApiClient } from '../../../lib/api-client';

/** The install log's filter (operator §2): supply number (blank: every farm), log type, zero-based page. */
export interface LogFilter {
  readonly supplyNumber: string;
  readonly logType: LogType;
  readonly page: number;
}

/** INSTALLS: one page of 50 (§9), newest first; the previous page stays shown while the next loads. */
export const installLogQuery = (client: ApiClient, filter: LogFilter) =>
  queryOptions({
    queryKey: ['installer', 'log', filter],
    queryFn: ({ signal }) => client.call(c.INSTALLS, { supplyNumber: filter.supplyNumber, logType: filter.logType, page: filter.page, pageSize: INSTALL_LOG_PAGE }, { signal }),
    placeholderData: keepPreviousData,
  });
