import { zoneSuffix } from '../../lib/time-format';

/**
 * Under charts whose axes tick on the farm's clock (one clock for farmers): when the
 * browser's clock reads another time, say which clock the axes and the date picker use, since a
 * tick ('Sun 14:00') has no room for the zone's name. Nothing when the two clocks agree.
 */
export function FarmClockNote({ timeZone, at = Date.now() }: { readonly timeZone: string | undefined; readonly at?: number }) {
  const zone = zoneSuffix(at, timeZone).trim();
  return zone ? <p className="page__note farm-clock-note">Times are the farm&apos;s ({zone}).</p> : null;
}
