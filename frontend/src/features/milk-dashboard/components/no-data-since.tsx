import { localDayOf } from '@shared/time/local-day';
import { formatClock, formatWhen } from '../../../lib/time-format';

/**
 * 'No data since 13:05', in amber: the farm's clock time when the last reading was
 * today there, else its date and time (§9 'DD MMM YYYY HH:mm'); 'No data' without any reading.
 */
export const noDataSinceText = (at: string | undefined, now: number, timeZone: string | undefined): string => {
  if (!at) return 'No data';
  const sameDay = timeZone ? localDayOf(Date.parse(at), timeZone) === localDayOf(now, timeZone) : new Date(at).toDateString() === new Date(now).toDateString();
  return `No data since ${sameDay ? formatClock(at, timeZone) : formatWhen(at, timeZone)}`;
};

export function NoDataSince({ at, now, timeZone }: { readonly at: string | undefined; readonly now: number; readonly timeZone: string | undefined }) {
  return (
    <p className="no-data-since" role="status">
      {noDataSinceText(at, now, timeZone)}
    </p>
  );
}
