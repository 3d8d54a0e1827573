import { formatTemperature, formatVolume } from '../../../lib/format';
import { formatWhen } from '../../../lib/time-format';
import { collectionListQuery } from '../api/storage';
import { formatDuration } from '../utils/format';
import { PagedVatLists } from './paged-vat-lists';

/** /dts/collection (farmer §2.6): the collections the vat monitor detected, per vat, newest first, in the farm's local time. */
export function CollectionPage() {
  return (
    <PagedVatLists
      title="Collections"
      listQuery={collectionListQuery}
      empty="No collections in these days."
      rowOf={(c, tz) => ({
        key: c._id,
        facts: [
          ['Started', formatWhen(c.activity.start.published_at, tz)],
          ['Duration', c.activity.end ? formatDuration(c.duration_min) : 'Still collecting'],
          ['Volume collected', formatVolume(c.volume_collected)],
          ['Temperature', formatTemperature(c.activity.start.temp1)],
        ],
      })}
    />
  );
}
