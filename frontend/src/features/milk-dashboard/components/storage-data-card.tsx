import { memo } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import type { VatLast } from '../../../lib/queries/dashboard-last';
import { relativeTime } from '../utils/vat-card';
import './dashboard-tiles.css';

/** What the card says of a vat's latest storage: the milk in the vat now, or when the last one was collected. */
const storageLine = (vat: VatLast, now: number): string => {
  const s = vat.lastStorage;
  if (!s) return 'No storage recorded yet.';
  if (!s.activity.end) return `In the vat since ${relativeTime(s.activity.start.published_at, now) ?? s.activity.start.published_at}`;
  return `Last storage collected ${relativeTime(s.activity.end.published_at, now) ?? s.activity.end.published_at}`;
};

/**
 * The 'Milk storage data' card (farmer §2.5): per vat the current (or last) storage, opening its
 * storage page (§2.7), and More to the storage data page (/dts/dashboard/data).
 */
export const StorageDataCard = memo(function StorageDataCard({ vats, now }: { readonly vats: readonly VatLast[]; readonly now: number }) {
  return (
    <section className="card dashboard-tile" aria-labelledby="storage-data-card-title">
      <div className="dashboard-tile__header">
        <h2 className="card__title dashboard-tile__title" id="storage-data-card-title">
          Milk storage data
        </h2>
        <Link className="button" to={paths.storageData.to()}>
          More
        </Link>
      </div>
      <ul className="card-list">
        {vats.map((vat) => (
          <li key={vat.device._id} className="card-list__item dashboard-tile__row">
            <span className="dashboard-tile__vat">Vat {vat.device.vat_number}</span>
            <span className="dashboard-tile__text">{storageLine(vat, now)}</span>
            {vat.lastStorage && (
              <Link className="button button--text" to={paths.storage.to(vat.lastStorage._id)} aria-label={`View Vat ${vat.device.vat_number} storage`}>
                View
              </Link>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
});
