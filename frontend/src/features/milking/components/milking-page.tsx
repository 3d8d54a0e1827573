import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useOutletContext } from 'react-router-dom';
import type { Farm } from '@shared/entities/farm';
import { PageButtons } from '../../../components/page-buttons';
import { useApiClient } from '../../../lib/api-client-provider';
import { errorTextOf } from '../../../lib/api-error';
import { formatDay } from '../../../lib/time-format';
import { milkingListQuery } from '../api/milking-list';
import './milking.css';

const MilkingCharts = lazy(() => import('./milking-charts').then((m) => ({ default: m.MilkingCharts })));

/** What this screen reads from the farm tabs' outlet context (the shell's contract, not its code). */
export interface MilkingContext {
  readonly farm: Pick<Farm, '_id' | 'timezone'> | undefined;
}

const errorText = (error: unknown): string => errorTextOf(error, 'The milkings could not be loaded.');

/** /dts/milking (farmer §2.6, tab 1): the farm's milkings of 30 days, paged back by 30 days. */
export function MilkingPage() {
  const { farm } = useOutletContext<MilkingContext>();
  const client = useApiClient();
  const [page, setPage] = useState(1);
  const { data, error, isFetching } = useQuery({ ...milkingListQuery(client, farm?._id ?? '', page), enabled: farm !== undefined, placeholderData: (previous) => previous });
  return (
    <section className="page milking">
      <h1 className="page__title">Milking</h1>
      <div className="milking__range">
        <PageButtons page={page} onPage={setPage} />
        {data && (
          <span className="milking__range-text">
            {formatDay(data.range.startDate)} to {formatDay(data.range.endDate)}
          </span>
        )}
      </div>
      {error && (
        <p className="milking-error" role="alert">
          {errorText(error)}
        </p>
      )}
      {isFetching && !data && <p className="page__note">Loading milkings…</p>}
      {data && !error && data.list.length === 0 && <p className="page__note">No milkings in these 30 days.</p>}
      {data && !error && data.list.length > 0 && (
        <Suspense fallback={<p className="page__note">Loading charts…</p>}>
          <MilkingCharts key={page} data={data} timeZone={farm?.timezone} />
        </Suspense>
      )}
    </section>
  );
}
