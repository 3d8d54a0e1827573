/**
 * Every date and time a farmer sees, in one place (farmer §9): 'DD MMM YYYY HH:mm' for a time,
 * 'DD MMM YYYY' for a day, 'ddd, Do MMMM HH:mm' on charts, always in the farm's time zone. An
 * adviser in another zone sees the farm's clock everywhere (lists, alerts, charts, tooltips,
 * pickers, CSV), with the zone's short name after a time where the browser's zone says another
 * time, so one page never mixes two clocks. `timeZone` undefined means the browser's own zone
 * (the operator's device pages, which have no farm).
 *
 * Built on Intl alone: month and weekday names are fixed English (ICU writes 'Sept' for en-GB),
 * and a wall-clock time is turned back into an instant by the zone's offset, so daylight-saving
 * changes land where the farm has them, not where the browser does.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MINUTE = 60_000;
const DAY = 1440 * MINUTE;

const two = (n: number) => String(n).padStart(2, '0');

/** Times come as ISO text or epoch ms; the §9 wire form 'YYYY-MM-DD HH:mm:ss' without a zone is UTC. */
const instantOf = (at: string | number): number => {
  if (typeof at === 'number') return at;
  const wire = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(at);
  return Date.parse(wire ? `${at.replace(' ', 'T')}Z` : at);
};

/** A wall-clock reading: month 1-12, weekday 0 (Sunday) to 6. */
interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const partsFormat = (timeZone: string | undefined): Intl.DateTimeFormat => {
  const key = timeZone ?? '';
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      ...(timeZone ? { timeZone } : {}),
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    });
    formatters.set(key, f);
  }
  return f;
};

/** The wall clock of `timeZone` at an instant, read from Intl. */
const readWallClock = (instant: number, timeZone: string | undefined): WallClock => {
  const parts = partsFormat(timeZone).formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const year = get('year');
  const month = get('month');
  const day = get('day');
  return { year, month, day, hour: get('hour') % 24, minute: get('minute'), second: get('second'), weekday: new Date(Date.UTC(year, month - 1, day)).getUTCDay() };
};

const readOffset = (instant: number, timeZone: string | undefined): number => {
  const w = readWallClock(instant, timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(instant / 1000) * 1000;
};

const HOUR = 60 * MINUTE;
/** The zone's offset through each hour of UTC already read: null where its clock changes inside the hour. */
const hourOffsets = new Map<string, number | null>();

/**
 * How far `timeZone`'s clock is ahead of UTC at an instant, in ms. Intl's formatToParts costs a
 * phone's main thread a few tenths of a millisecond a call, and a page of times (the compliance
 * season, a device list) made three a time: the offset is read once for each hour of UTC at its
 * two ends, and where they agree (the clock did not change inside it) every instant of the hour
 * has it; an hour in which it changes is read instant by instant, as before.
 */
const offsetAt = (instant: number, timeZone: string | undefined): number => {
  const start = Math.floor(instant / HOUR) * HOUR;
  const key = `${timeZone ?? ''}|${start}`;
  let offset = hourOffsets.get(key);
  if (offset === undefined) {
    const first = readOffset(start, timeZone);
    offset = first === readOffset(start + HOUR - 1000, timeZone) ? first : null;
    if (hourOffsets.size >= 100_000) hourOffsets.clear();
    hourOffsets.set(key, offset);
  }
  return offset ?? readOffset(instant, timeZone);
};

/** The wall clock of `timeZone` at an instant: UTC's shifted by the zone's offset then. */
export const wallClock = (instant: number, timeZone: string | undefined): WallClock => {
  const d = new Date(Math.floor(instant / 1000) * 1000 + offsetAt(instant, timeZone));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), weekday: d.getUTCDay() };
};

/**
 * The instant `timeZone`'s clock reads this wall-clock time (month 1-12). A time skipped by a
 * daylight-saving change comes out an hour later; a repeated one is its first occurrence.
 */
export const instantAt = (timeZone: string | undefined, year: number, month: number, day: number, hour = 0, minute = 0): number => {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  // The zone's offsets a day either side: the wall time is read with each, and kept where it reads back.
  const before = offsetAt(asUtc - DAY, timeZone);
  const after = offsetAt(asUtc + DAY, timeZone);
  const fits = [asUtc - before, asUtc - after].filter((t) => asUtc - t === offsetAt(t, timeZone));
  // None fits: the clock skipped this time; the offset before the change puts it as far after.
  return fits.length > 0 ? Math.min(...fits) : asUtc - before;
};

let browserFormat: Intl.DateTimeFormat | undefined;
/** The browser's own zone (an adviser's may not be the farm's), from one formatter made at the first call: making one a time cost more than the time's text. */
const browserZone = (): string | undefined => (browserFormat ??= new Intl.DateTimeFormat()).resolvedOptions().timeZone;

/** Locales whose short names are words (NZDT, AEST, GMT, BST) rather than 'GMT+13'. */
const NAME_LOCALES = ['en-NZ', 'en-AU', 'en-GB', 'en-US', 'en-IE', 'en-CA', 'en-ZA', 'en-IN'] as const;

/** The zone's short name at an instant ('NZDT', 'AEST', 'BST'), 'GMT+13' style where no name exists. */
const zoneNames = new Map<string, string>();
const nameFormats = new Map<string, Intl.DateTimeFormat>();
const nameFormat = (locale: string, timeZone: string | undefined): Intl.DateTimeFormat => {
  const key = `${locale}|${timeZone ?? ''}`;
  let f = nameFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { ...(timeZone ? { timeZone } : {}), timeZoneName: 'short' });
    nameFormats.set(key, f);
  }
  return f;
};
export const zoneShortName = (instant: number, timeZone: string | undefined): string => {
  // A zone's name follows its offset (NZST, NZDT); the year is in the key for a zone renamed at a change of rules.
  const key = `${timeZone ?? ''}|${offsetAt(instant, timeZone)}|${new Date(instant).getUTCFullYear()}`;
  const known = zoneNames.get(key);
  if (known !== undefined) return known;
  let found: string | undefined;
  let fallback = '';
  for (const locale of NAME_LOCALES) {
    const name = nameFormat(locale, timeZone).formatToParts(new Date(instant)).find((p) => p.type === 'timeZoneName')?.value ?? '';
    if (name && !/^(GMT|UTC)[+-−]/.test(name)) {
      found = name;
      break;
    }
    fallback ||= name;
  }
  zoneNames.set(key, found ?? fallback);
  return found ?? fallback;
};

/** ' NZDT' when the browser's clock reads another time than the farm's at that instant, else ''. */
export const zoneSuffix = (instant: number, timeZone: string | undefined): string =>
  timeZone === undefined || offsetAt(instant, timeZone) === offsetAt(instant, browserZone()) ? '' : ` ${zoneShortName(instant, timeZone)}`;

const whenText = (w: WallClock) => `${two(w.day)} ${MONTHS[w.month - 1] ?? ''} ${w.year} ${two(w.hour)}:${two(w.minute)}`;

/** §9 'DD MMM YYYY HH:mm' in the farm's zone, with the zone's name where the browser's differs. */
export const formatWhen = (at: string | number, timeZone: string | undefined): string => {
  const instant = instantOf(at);
  if (Number.isNaN(instant)) return String(at);
  return `${whenText(wallClock(instant, timeZone))}${zoneSuffix(instant, timeZone)}`;
};

/**
 * The CSV's DateTime: §9 'DD MMM YYYY HH:mm' in the farm's zone without a zone name (a
 * spreadsheet column holds one zone: the farm's). `seconds` keeps the seconds for the operator's
 * milk-quality export, whose readings may be seconds apart.
 */
export const formatCsvWhen = (at: string | number, timeZone: string | undefined, seconds = false): string => {
  const instant = instantOf(at);
  if (Number.isNaN(instant)) return String(at);
  const w = wallClock(instant, timeZone);
  return seconds ? `${whenText(w)}:${two(w.second)}` : whenText(w);
};

const ordinal = (n: number): string => {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
};

/** §9 chart format 'ddd, Do MMMM HH:mm' ('Sun, 22nd November 14:05') in the farm's zone, named where the browser's differs. */
export const formatChartTime = (at: string | number, timeZone: string | undefined): string => {
  const instant = instantOf(at);
  if (Number.isNaN(instant)) return String(at);
  const w = wallClock(instant, timeZone);
  return `${WEEKDAYS[w.weekday] ?? ''}, ${ordinal(w.day)} ${MONTH_NAMES[w.month - 1] ?? ''} ${two(w.hour)}:${two(w.minute)}${zoneSuffix(instant, timeZone)}`;
};

/** A time axis tick: the weekday and time ('Sun 14:00') in the farm's zone. */
export const formatTick = (instant: number, timeZone: string | undefined): string => {
  const w = wallClock(instant, timeZone);
  return `${WEEKDAYS[w.weekday] ?? ''} ${two(w.hour)}:${two(w.minute)}`;
};

/** A clock time 'HH:mm' in the farm's zone (the cooling chart's hours, the plant's last update), named where the browser's differs. */
export const formatClock = (at: string | number, timeZone: string | undefined, named = true): string => {
  const instant = instantOf(at);
  if (Number.isNaN(instant)) return String(at);
  const w = wallClock(instant, timeZone);
  return `${two(w.hour)}:${two(w.minute)}${named ? zoneSuffix(instant, timeZone) : ''}`;
};

/** A day on an axis ('22 Nov') in the farm's zone. */
export const formatDayTick = (instant: number, timeZone: string | undefined): string => {
  const w = wallClock(instant, timeZone);
  return `${two(w.day)} ${MONTHS[w.month - 1] ?? ''}`;
};

/** §9 date 'DD MMM YYYY' of a calendar day 'YYYY-MM-DD' (a range's ends: days are the farm's already). */
export const formatDay = (day: string): string => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return m ? `${m[3]} ${MONTHS[Number(m[2]) - 1] ?? ''} ${m[1]}` : day;
};

/** 'YYYY-MM-DD' → 'DD/MM/YYYY', as the §2.5 date-range picker's text field reads. */
export const pickerDayText = (day: string): string => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

/** 'DD/MM/YYYY' (the §2.5 picker) → 'YYYY-MM-DD', or undefined when it is not a calendar day. */
export const parsePickerDay = (text: string): string | undefined => {
  const m = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s*$/.exec(text);
  if (!m) return undefined;
  const day = `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
  const d = new Date(`${day}T00:00:00.000Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== day ? undefined : day;
};

/** The farm's wall clock at an instant as a datetime-local value ('YYYY-MM-DDTHH:mm'): the Pickup Time field. */
export const pickerValue = (instant: number, timeZone: string | undefined): string => {
  const w = wallClock(instant, timeZone);
  return `${w.year}-${two(w.month)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}`;
};

/** A datetime-local value read as the farm's wall clock → the instant, or NaN when it is not one. */
export const instantOfPickerValue = (value: string, timeZone: string | undefined): number => {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
  if (!m) return Number.NaN;
  return instantAt(timeZone, Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]));
};

/** Tick spacings a farmer reads at a glance: whole quarter hours, hours, days, weeks. */
const TICK_MINUTES = [10, 15, 30, 60, 120, 180, 360, 720] as const;
const TICK_DAYS = [1, 2, 7] as const;

/**
 * The x ticks of a time chart at round times of the farm's clock (whole hours, the farm's
 * midnights, …), at most `maxTicks`, instead of chart.js's evenly spread values (Sat 21:33).
 */
export const niceTimeTicks = (min: number, max: number, timeZone: string | undefined, maxTicks = 6): number[] => {
  if (!(max > min)) return [min];
  const span = max - min;
  const minutes = TICK_MINUTES.find((m) => Math.floor(span / (m * MINUTE)) + 1 <= maxTicks);
  const start = wallClock(min, timeZone);
  const ticks: number[] = [];
  if (minutes !== undefined) {
    // Steps of the farm's clock from its midnight: a whole hour stays whole across a daylight-saving change.
    for (let m = Math.floor((start.hour * 60 + start.minute) / minutes) * minutes; ; m += minutes) {
      const t = instantAt(timeZone, start.year, start.month, start.day, 0, m);
      if (t > max) break;
      if (t >= min && ticks.at(-1) !== t) ticks.push(t);
    }
    return ticks;
  }
  const days = TICK_DAYS.find((d) => Math.floor(span / (d * DAY)) + 1 <= maxTicks) ?? Math.ceil(span / DAY / (maxTicks - 1));
  // From the farm's first midnight in the range, `days` of the farm's calendar apart.
  let d = instantAt(timeZone, start.year, start.month, start.day) < min ? 1 : 0;
  for (; ; d += days) {
    const t = instantAt(timeZone, start.year, start.month, start.day + d);
    if (t > max) break;
    ticks.push(t);
  }
  return ticks;
};
