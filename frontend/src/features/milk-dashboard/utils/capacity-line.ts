import { wallClock, zoneSuffix } from '../../../lib/time-format';

/** The capacity forecast as FARMER_DASHBOARD_LAST answers it (shared/alerts/capacity-forecast.ts). */
interface CapacityFacts {
  readonly at80: string | null;
  readonly atFull: string | null;
  readonly over80: boolean;
  readonly usualPickupTime: string | null;
  readonly fullBeforePickup: boolean;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const FIVE_MIN = 5 * 60_000;
const two = (n: number) => String(n).padStart(2, '0');

/** 'today', 'tomorrow' or the weekday, by the farm's calendar. */
const dayWord = (instant: number, now: number, timeZone: string | undefined): string => {
  const a = wallClock(instant, timeZone);
  const b = wallClock(now, timeZone);
  const days = Math.round((Date.UTC(a.year, a.month - 1, a.day) - Date.UTC(b.year, b.month - 1, b.day)) / 86_400_000);
  return days <= 0 ? 'today' : days === 1 ? 'tomorrow' : `on ${WEEKDAYS[a.weekday] ?? ''}`;
};

/** 'about 06:40 tomorrow': the farm's clock, to the nearest 5 minutes (a forecast is no more exact). */
const about = (iso: string, now: number, timeZone: string | undefined): string => {
  const instant = Math.round(Date.parse(iso) / FIVE_MIN) * FIVE_MIN;
  const w = wallClock(instant, timeZone);
  return `about ${two(w.hour)}:${two(w.minute)}${zoneSuffix(instant, timeZone)} ${dayWord(instant, now, timeZone)}`;
};

/**
 * The vat card's forecast line: 'Reaches 80 % at about 06:40 tomorrow — next pickup
 * usually 09:00'; past 80 %, when it is full; undefined when there is nothing to say yet.
 */
export const capacityLine = (c: CapacityFacts | null | undefined, now: number, timeZone: string | undefined): string | undefined => {
  if (!c) return undefined;
  const pickup = c.usualPickupTime ? ` — next pickup usually ${c.usualPickupTime}` : '';
  if (!c.over80 && c.at80) return `Reaches 80 % at ${about(c.at80, now, timeZone)}${pickup}`;
  if (c.over80 && c.atFull) return `Full at ${about(c.atFull, now, timeZone)}${pickup}`;
  return undefined;
};
