import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useOutletContext } from 'react-router-dom';
import { useApiClient } from '../../../lib/api-client-provider';
import { formatTemperature, formatVolume, formatWhen } from '../../alerts/utils/format';
import { collectionListQuery } from '../api/storage';
import { formatDuration } from '../utils/format';
import { PagedVatLists } from './paged-vat-lists';
import type { StorageContext } from './storage-page';
import './storage.css';

/** /dts/collection (farmer §2.6): the collections the vat monitor detected, per vat, newest first, in the farm's local time. */
export function CollectionPage() {
  const { farm } = useOutletContext<StorageContext>();
  const client = useApiClient();
  const [page, setPage] = useState(1);
  const result = useQuery({ ...collectionListQuery(client, farm?._id ?? '', page), enabled: farm !== undefined, placeholderData: keepPreviousData });
  if (!farm) return null;
  const tz = farm.timezone;
  return (
    <section className="page">
      <h1 className="page__title">Collections</h1>
      <PagedVatLists
        farmId={farm._id}
        page={page}
        onPage={setPage}
        result={result}
        vatOf={(c) => c.vat_number}
        empty="No collections in these days."
        rowOf={(c) => ({
          key: c._id,
          facts: [
            ['Started', formatWhen(c.activity.start.published_at, tz)],
            ['Duration', c.activity.end ? formatDuration(c.duration_min) : 'Still collecting'],
            ['Volume collected', formatVolume(c.volume_collected)],
            ['Temperature', formatTemperature(c.activity.start.temp1)],
          ],
        })}
      />
    </section>
  );
}
