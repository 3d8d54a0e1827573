import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useOutletContext } from 'react-router-dom';
import { useApiClient } from '../../../lib/api-client-provider';
import { formatTemperature, formatVolume, formatWhen } from '../../alerts/utils/format';
import { agitatorListQuery } from '../api/storage';
import { formatDuration } from '../utils/format';
import { PagedVatLists } from './paged-vat-lists';
import type { StorageContext } from './storage-page';
import './storage.css';

/** /dts/agitator (farmer §2.3, §4): each agitator stop period (status 0 until the next 1), per vat, newest first. */
export function AgitatorPage() {
  const { farm } = useOutletContext<StorageContext>();
  const client = useApiClient();
  const [page, setPage] = useState(1);
  const result = useQuery({ ...agitatorListQuery(client, farm?._id ?? '', page), enabled: farm !== undefined, placeholderData: keepPreviousData });
  if (!farm) return null;
  const tz = farm.timezone;
  return (
    <section className="page">
      <h1 className="page__title">Agitator stops</h1>
      <PagedVatLists
        farmId={farm._id}
        page={page}
        onPage={setPage}
        result={result}
        vatOf={(s) => s.vat_number}
        empty="No agitator stops in these days."
        rowOf={(s) => ({
          key: s._id,
          facts: [
            ['Stopped', formatWhen(s.activity.start.published_at, tz)],
            ['Restarted', s.activity.end ? formatWhen(s.activity.end.published_at, tz) : 'Still stopped'],
            ['Duration', s.activity.end ? formatDuration(s.duration_min) : '–'],
            ['Milk', `${formatVolume(s.activity.start.milk_volume)}, ${formatTemperature(s.activity.start.temp1)}`],
          ],
        })}
      />
    </section>
  );
}
