import { useQuery } from '@tanstack/react-query';
import { useApiClient } from '../../../lib/api-client-provider';
import { dashboardLastQuery } from '../../../lib/queries/dashboard-last';
import { dayText } from '../../../lib/day-text';
import { ActivityList, byVat, type ActivityRow } from './activity-list';
import '../../../components/charts/charts.css';

interface Ranged<T> {
  readonly range: { readonly startDate: string; readonly endDate: string };
  readonly list: readonly T[];
}

export interface PagedVatListsProps<D extends Ranged<unknown>> {
  readonly farmId: string;
  /** The page shown: 1 is the latest 30 days, each next one 30 days further back. */
  readonly page: number;
  readonly onPage: (page: number) => void;
  readonly result: { readonly data: D | undefined; readonly isPending: boolean; readonly isError: boolean };
  readonly vatOf: (item: D['list'][number]) => number;
  readonly rowOf: (item: D['list'][number]) => ActivityRow;
  /** What a vat with nothing in the range says. */
  readonly empty: string;
}

/**
 * A farm's activities of 30 days, a card per vat (every vat of the farm, so a quiet vat says so),
 * paged back in time by page_index: Previous goes 30 days further back, Next returns (disabled on page 1).
 */
export function PagedVatLists<D extends Ranged<unknown>>({ farmId, page, onPage, result, vatOf, rowOf, empty }: PagedVatListsProps<D>) {
  const client = useApiClient();
  const { data, isPending, isError } = result;
  // The farm's vats, from the dashboard's call (usually cached): a vat with nothing in range still gets its card.
  const vats = useQuery(dashboardLastQuery(client, farmId)).data?.map((v) => v.device.vat_number) ?? [];
  const groups = new Map(data ? byVat(data.list, vatOf) : []);
  const vatNumbers = [...new Set([...vats, ...groups.keys()])].sort((a, b) => a - b);

  return (
    <>
      <div className="chart-range">
        <button type="button" className="button" onClick={() => onPage(page + 1)}>
          Previous
        </button>
        <button type="button" className="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Next
        </button>
      </div>
      {data && (
        <p className="page__note">
          {dayText(data.range.startDate)} to {dayText(data.range.endDate)}
        </p>
      )}
      {isPending && <p className="page__note">Loading…</p>}
      {isError && !data && <p className="page__note">The list could not be loaded.</p>}
      {data && vatNumbers.length === 0 && <p className="page__note">{empty}</p>}
      {data && vatNumbers.map((n) => <ActivityList key={n} vat={n} rows={(groups.get(n) ?? []).map(rowOf)} empty={empty} />)}
    </>
  );
}
