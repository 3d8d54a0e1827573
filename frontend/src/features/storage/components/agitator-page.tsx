import { formatTemperature, formatVolume } from '../../../lib/format';
import { formatWhen } from '../../../lib/time-format';
import { agitatorListQuery } from '../api/storage';
import { formatDuration } from '../utils/format';
import { PagedVatLists } from './paged-vat-lists';

/** /dts/agitator (farmer §2.3, §4): each agitator stop period (status 0 until the next 1), per vat, newest first. */
export function AgitatorPage() {
  return (
    <PagedVatLists
      title="Agitator stops"
      listQuery={agitatorListQuery}
      empty="No agitator stops in these days."
      rowOf={(s, tz) => ({
        key: s._id,
        facts: [
          ['Stopped', formatWhen(s.activity.start.published_at, tz)],
          ['Restarted', s.activity.end ? formatWhen(s.activity.end.published_at, tz) : 'Still stopped'],
          ['Duration', s.activity.end ? formatDuration(s.duration_min) : '–'],
          ['Milk', `${formatVolume(s.activity.start.milk_volume)}, ${formatTemperature(s.activity.start.temp1)}`],
        ],
      })}
    />
  );
}
