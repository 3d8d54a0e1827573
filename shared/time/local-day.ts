/**
 * Farm-local calendar days and UTC instants. A farmer who picks 01/11/2026–03/11/2026 means their
 * own days (farm.timezone, Pacific/Auckland for the demo farms), so a YYYY-MM-DD range maps to
 * [local midnight of the first day, local midnight after the last day) in UTC. Intl does the zone
 * arithmetic, daylight saving included; no date library needed.
 */
const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();
const formatter = (timeZone: string): Intl.DateTimeFormat => {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
};

/** The zone's offset from UTC at an instant, in milliseconds (+13 h in an Auckland summer). */
const zoneOffsetMs = (instant: number, timeZone: string): number => {
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return asUtc - Math.floor(instant / 1000) * 1000;
};

/** The local calendar day (YYYY-MM-DD) of an instant. */
export const localDayOf = (instant: number, timeZone: string): string => new Date(instant + zoneOffsetMs(instant, timeZone)).toISOString().slice(0, 10);

/** The UTC instant of local midnight at the start of a YYYY-MM-DD day. */
export const localMidnight = (day: string, timeZone: string): number => {
  const wall = Date.parse(`${day}T00:00:00.000Z`);
  // Two passes: the offset at the guess may differ from the offset at the answer across a DST change.
  const first = wall - zoneOffsetMs(wall, timeZone);
  return wall - zoneOffsetMs(first, timeZone);
};

/** The day `n` days after a YYYY-MM-DD day (calendar arithmetic, no zone). */
export const addDays = (day: string, n: number): string => new Date(Date.parse(`${day}T00:00:00.000Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** Whole calendar days from a to b (YYYY-MM-DD). */
export const daysFrom = (a: string, b: string): number => Math.round((Date.parse(`${b}T00:00:00.000Z`) - Date.parse(`${a}T00:00:00.000Z`)) / DAY_MS);

/** A real calendar date in YYYY-MM-DD form. */
export const isCalendarDay = (s: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(s) && new Date(`${s}T00:00:00.000Z`).toISOString().slice(0, 10) === s;

/** The farm-local month (YYYY-MM) of an instant: the month a text counts against (farmer §9 SMS totals). */
export const localMonth = (at: Date, timezone: string): string => {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit' }).formatToParts(at);
  return `${parts.find((p) => p.type === 'year')?.value}-${parts.find((p) => p.type === 'month')?.value}`;
};

/** Minutes from midnight of an instant on the clock of `timeZone` (what the farm's clock shows). */
export const localMinuteOfDay = (instant: number, timeZone: string): number => Math.floor(((((instant + zoneOffsetMs(instant, timeZone)) % DAY_MS) + DAY_MS) % DAY_MS) / 60_000);
/** a - b in minutes of the day, wrapped into -720..719 (23:50 is 20 minutes before 00:10). */
export const wrapMinutes = (a: number, b: number): number => ((((a - b) % 1440) + 2160) % 1440) - 720;
