import { keepPreviousData, useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useState } from 'react';
import { useOutletContext } from 'react-router-dom';
import { PageButtons } from '../../../components/page-buttons';
import type { ApiClient } from '../../../lib/api-client';
import { useApiClient } from '../../../lib/api-client-provider';
import { dashboardLastQuery } from '../../../lib/queries/dashboard-last';
import { formatDay } from '../../../lib/time-format';
import { ActivityList, byVat, type ActivityRow } from './activity-list';
import type { StorageContext } from './storage-page';
import '../../../components/charts/charts.css';
import './storage.css';

interface Ranged<T> {
  readonly range: { readonly startDate: string; readonly endDate: string };
  readonly list: readonly T[];
}

type Item<D extends Ranged<unknown>> = D['list'][number];

interface PagedVatListsProps<D extends Ranged<{ readonly vat_number: number }>, K extends QueryKey> {
  /** The page's level-1 heading. */
  readonly title: string;
  /** The farm's list of one page: 1 is the latest 30 days, each next one 30 days further back. */
  readonly listQuery: (client: ApiClient, farmId: string, page: number) => UseQueryOptions<D, Error, D, K>;
  /** A list item as its row, times in the farm's zone. */
  readonly rowOf: (item: Item<D>, timeZone: string) => ActivityRow;
  /** What a vat with nothing in the range says. */
  readonly empty: string;
  /**
   * More rows for the same page, merged into each vat's card newest first (by `at`): the submitted
   * pickups beside the detected collections. A hook: it is called on every render.
   */
  readonly useMoreRows?: (farmId: string, page: number, timeZone: string) => readonly { readonly vat: number; readonly row: ActivityRow }[];
}

const noMoreRows = () => [];

/**
 * A screen of the selected farm's activities of 30 days (collections, agitator stops), a card per
 * vat (every vat of the farm, so a quiet vat says so), paged back in time by page_index: Previous
 * goes 30 days further back, Next returns (disabled on page 1).
 */
export function PagedVatLists<D extends Ranged<{ readonly vat_number: number }>, K extends QueryKey>({ title, listQuery, rowOf, empty, useMoreRows = noMoreRows }: PagedVatListsProps<D, K>) {
  const { farm } = useOutletContext<StorageContext>();
  const client = useApiClient();
  const [page, setPage] = useState(1);
  const farmId = farm?._id ?? '';
  const { data, isPending, isError } = useQuery({ ...listQuery(client, farmId, page), enabled: farm !== undefined, placeholderData: keepPreviousData });
  // The farm's vats, from the dashboard's call (usually cached): a vat with nothing in range still gets its card.
  const vats = useQuery({ ...dashboardLastQuery(client, farmId), enabled: farm !== undefined }).data?.map((v) => v.device.vat_number) ?? [];
  const more = useMoreRows(farmId, page, farm?.timezone ?? '');
  if (!farm) return null;
  const groups = new Map(data ? byVat<Item<D>>(data.list, (item) => item.vat_number) : []);
  const moreGroups = new Map(byVat(more, (m) => m.vat));
  const vatNumbers = [...new Set([...vats, ...groups.keys(), ...(data ? moreGroups.keys() : [])])].sort((a, b) => a - b);
  const rowsOf = (n: number): ActivityRow[] => {
    const rows = (groups.get(n) ?? []).map((item) => rowOf(item, farm.timezone));
    const extra = (moreGroups.get(n) ?? []).map((m) => m.row);
    // Newest first across both lists; rows without a time keep their order.
    return extra.length === 0 ? rows : [...rows, ...extra].sort((a, b) => (b.at ?? '').localeCompare(a.at ?? ''));
  };

  return (
    <section className="page">
      <h1 className="page__title">{title}</h1>
      <div className="chart-range">
        <PageButtons page={page} onPage={setPage} />
      </div>
      {data && (
        <p className="page__note">
          {formatDay(data.range.startDate)} to {formatDay(data.range.endDate)}
        </p>
      )}
      {isPending && <p className="page__note">Loading…</p>}
      {isError && !data && <p className="page__note">The list could not be loaded.</p>}
      {data && vatNumbers.length === 0 && <p className="page__note">{empty}</p>}
      {data && vatNumbers.map((n) => <ActivityList key={n} vat={n} rows={rowsOf(n)} empty={empty} />)}
    </section>
  );
}
