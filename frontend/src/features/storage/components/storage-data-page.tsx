import { useQuery } from '@tanstack/react-query';
import { Link, useOutletContext } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { useApiClient } from '../../../lib/api-client-provider';
import { formatTemperature, formatVolume } from '../../../lib/format';
import { formatWhen } from '../../../lib/time-format';
import { storageHistoryQuery } from '../../../lib/queries/storage-history';
import { storageFigures } from '../utils/storage-figures';
import { ActivityList } from './activity-list';
import type { StorageContext } from './storage-page';
import './storage.css';

/**
 * /dts/dashboard/data (farmer §2.3 "storage data, opened from More"): per vat the storages of the
 * last 7 days, newest first, with when they began and ended and their peak volume and temperature;
 * each opens its storage page (§2.7). Unlike the dashboard's history charts it is loaded on phones
 * too: it is a list, and the farmer asked for it.
 */
export function StorageDataPage() {
  const { farm } = useOutletContext<StorageContext>();
  const client = useApiClient();
  const { data, isPending, isError } = useQuery({ ...storageHistoryQuery(client, farm?._id ?? ''), enabled: farm !== undefined });
  const tz = farm?.timezone;
  return (
    <section className="page">
      <h1 className="page__title">Milk storage data</h1>
      <p className="page__note">Each storage of the last 7 days: from the first milking into an empty vat until the milk is collected.</p>
      <div className="page-actions">
        <Link className="button" to={paths.collection.to()}>
          Collections
        </Link>
        <Link className="button" to={paths.agitator.to()}>
          Agitator stops
        </Link>
      </div>
      {isPending && <p className="page__note">Loading…</p>}
      {isError && !data && <p className="page__note">The storage data could not be loaded.</p>}
      {data && data.length === 0 && <p className="page__note">This farm has no vats yet.</p>}
      {data?.map((history) => (
        <ActivityList
          key={history.device._id}
          vat={history.device.vat_number}
          empty="No storages in the last 7 days."
          rows={storageFigures(history).map((s) => ({
            key: s._id,
            facts: [
              ['Started', formatWhen(s.start, tz)],
              ['Ended', s.end ? formatWhen(s.end, tz) : 'In the vat'],
              ['Peak volume', formatVolume(s.peakVolume)],
              ['Peak temperature', formatTemperature(s.peakTemperature)],
            ],
            action: (
              <Link className="button button--text" to={paths.storage.to(s._id)} aria-label={`View the storage of Vat ${history.device.vat_number} started ${formatWhen(s.start, tz)}`}>
                View
              </Link>
            ),
          }))}
        />
      ))}
    </section>
  );
}
