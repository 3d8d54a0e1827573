/**
 * Vat capacity forecast: when the vat reaches 80 % and full, and when the tanker is
 * expected, from the vat's own history. Pure: the alert engine keeps the history in its state
 * (`CapacityHistory`, stepped by `recordMilking` / `recordPickup`) and asks for a forecast at each
 * milking's end (alert 202); the dashboard asks for one to show on the vat card.
 *
 * The model (docs/architecture.md, "Capacity forecast"):
 *  - Milkings fall into sessions by the farm-local time they start (starts within
 *    SESSION_WINDOW_MIN of each other are one session: morning, afternoon, a third milking). Each
 *    session's start is the median of its starts (as minutes of the day), its length and the
 *    litres it adds the medians of its last MILKINGS_KEPT milkings. A session seen once in the
 *    last HISTORY_DAYS is still used; older milkings are forgotten (a dropped milking stops
 *    counting after a week).
 *  - The coming milkings are the sessions' next starts after now, day after day, each adding its
 *    litres linearly over its length; a milking under way adds what its session still has to add.
 *    The vat reaches a level at the first moment that running total crosses it.
 *  - The expected pickup: the median interval between recent pickups (detected collections and
 *    pickups the farmer submitted, one per 2 hours) after the last one, on the usual farm-local time
 *    of day (median of the pickups' times) nearest to it; a pickup overdue by that reckoning is
 *    expected at the next usual time of day after now.
 */

import { localMinuteOfDay, wrapMinutes } from '../time/local-day';

const MIN = 60_000;
const DAY = 1440 * MIN;

export const CAPACITY = {
  /** Milkings starting this close (minutes of the day) are one session. */
  SESSION_WINDOW_MIN: 180,
  MILKINGS_KEPT: 21,
  PICKUPS_KEPT: 12,
  HISTORY_DAYS: 7,
  /** Pickups closer than this are one (a detected collection and the farmer's entry of it). */
  SAME_PICKUP_MS: 2 * 60 * MIN,
  /** How far ahead the forecast looks. */
  HORIZON_DAYS: 7,
  /** A milking adding less than this share of the vat is not a milking (a rinse, radar noise). */
  MIN_ADDED_SHARE: 0.01,
} as const;

interface MilkingRecord {
  /** ISO start and end of the milking. */
  readonly start: string;
  readonly end: string;
  /** Litres it added to the vat. */
  readonly added: number;
}

export interface CapacityHistory {
  readonly milkings: readonly MilkingRecord[];
  /** ISO times of detected collections (the tanker started pumping), oldest first. */
  readonly pickups: readonly string[];
}

export const emptyCapacityHistory = (): CapacityHistory => ({ milkings: [], pickups: [] });

export const recordMilking = (h: CapacityHistory, m: MilkingRecord, vatSize: number): CapacityHistory =>
  m.added < vatSize * CAPACITY.MIN_ADDED_SHARE ? h : { ...h, milkings: [...h.milkings, m].slice(-CAPACITY.MILKINGS_KEPT) };

export const recordPickup = (h: CapacityHistory, at: string): CapacityHistory => ({ ...h, pickups: [...h.pickups, at].slice(-CAPACITY.PICKUPS_KEPT) });

interface ForecastInput {
  readonly now: string;
  /** Litres in the vat now (null: unknown, no forecast). */
  readonly volume: number | null;
  readonly vatSize: number;
  readonly history: CapacityHistory;
  /** Pickups the farmer submitted for this vat (ISO), any order. */
  readonly submittedPickups?: readonly string[];
  /** The milking under way, if any (its start): it adds what its session still has to add. */
  readonly milkingSince?: string | null;
  /** IANA zone of the farm (sessions and the pickup's time of day are farm-local). */
  readonly timeZone?: string;
}

interface CapacityForecast {
  /** When the vat reaches 80 % and 100 % (ISO); null when not within the horizon or not known. */
  readonly at80: string | null;
  readonly atFull: string | null;
  /** The already passed level: the vat is at or over it now. */
  readonly over80: boolean;
  /** The expected next pickup (ISO), and the usual farm-local time of day of pickups ('HH:mm'). */
  readonly nextPickup: string | null;
  readonly usualPickupTime: string | null;
  /** The forecast says the vat fills before the expected pickup. */
  readonly fullBeforePickup: boolean;
}

/** Minutes from midnight of an instant on the farm's clock (UTC without a zone). */
const localMinuteOf = (instant: number, timeZone = 'UTC'): number => localMinuteOfDay(instant, timeZone);
const wrap = wrapMinutes;

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
/** The median of minutes of the day, around the first one (so 23:50 and 00:10 meet at midnight). */
const medianMinute = (minutes: readonly number[]): number => {
  const base = minutes[0] as number;
  return (((base + median(minutes.map((m) => wrap(m, base)))) % 1440) + 1440) % 1440;
};

interface Session {
  readonly minute: number;
  readonly lengthMs: number;
  readonly added: number;
}

/** The farm's milking sessions from the milkings of the last HISTORY_DAYS. */
export const sessionsOf = (milkings: readonly MilkingRecord[], now: number, timeZone?: string): Session[] => {
  const recent = milkings.filter((m) => now - Date.parse(m.start) <= CAPACITY.HISTORY_DAYS * DAY);
  const groups: { minutes: number[]; records: MilkingRecord[] }[] = [];
  for (const m of recent) {
    const minute = localMinuteOf(Date.parse(m.start), timeZone);
    const g = groups.find((x) => Math.abs(wrap(minute, medianMinute(x.minutes))) <= CAPACITY.SESSION_WINDOW_MIN / 2);
    if (g) {
      g.minutes.push(minute);
      g.records.push(m);
    } else groups.push({ minutes: [minute], records: [m] });
  }
  return groups
    .map((g) => ({
      minute: medianMinute(g.minutes),
      lengthMs: Math.max(MIN, median(g.records.map((r) => Date.parse(r.end) - Date.parse(r.start)))),
      added: median(g.records.map((r) => r.added)),
    }))
    .sort((a, b) => a.minute - b.minute);
};

/** The next instant after `from` at which the farm's clock shows `minute` (stepping a day keeps DST right within a day or so). */
const nextAtMinute = (from: number, minute: number, timeZone?: string): number => {
  let t = from + ((((minute - localMinuteOf(from, timeZone)) % 1440) + 1440) % 1440) * MIN;
  // A daylight-saving change between `from` and `t` moves the wall clock by the difference.
  t += wrap(minute, localMinuteOf(t, timeZone)) * MIN;
  return t <= from ? t + DAY : t;
};

/** Pickups merged (detected and submitted, each counted once), oldest first. */
const pickupTimes = (history: CapacityHistory, submitted: readonly string[], now: number): number[] => {
  const all = [...history.pickups, ...submitted].map(Date.parse).filter((t) => Number.isFinite(t) && t <= now).sort((a, b) => a - b);
  const out: number[] = [];
  for (const t of all) if (out.length === 0 || t - (out[out.length - 1] as number) > CAPACITY.SAME_PICKUP_MS) out.push(t);
  return out.slice(-CAPACITY.PICKUPS_KEPT);
};

const hhmm = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(Math.round(minute % 60)).padStart(2, '0')}`;

/** The expected next pickup after `now` and the usual time of day, from at least two pickups. */
const expectedPickup = (pickups: readonly number[], now: number, timeZone?: string): { at: number; minute: number } | null => {
  if (pickups.length < 2) return null;
  const intervals = pickups.slice(1).map((t, i) => t - (pickups[i] as number));
  const interval = median(intervals);
  const minute = Math.round(medianMinute(pickups.map((t) => localMinuteOf(t, timeZone))));
  const last = pickups[pickups.length - 1] as number;
  // The usual time of day nearest to last + interval.
  const guess = last + interval;
  let at = guess + wrap(minute, localMinuteOf(guess, timeZone)) * MIN;
  if (at <= now) at = nextAtMinute(now, minute, timeZone);
  return { at, minute };
};

/** The forecast (see the module's comment). */
export const forecastCapacity = (input: ForecastInput): CapacityForecast => {
  const now = Date.parse(input.now);
  const pickups = pickupTimes(input.history, input.submittedPickups ?? [], now);
  const pickup = expectedPickup(pickups, now, input.timeZone);
  const base = { nextPickup: pickup ? new Date(pickup.at).toISOString() : null, usualPickupTime: pickup ? hhmm(pickup.minute) : null };
  const size = input.vatSize;
  if (input.volume === null || size <= 0) return { at80: null, atFull: null, over80: false, ...base, fullBeforePickup: false };
  const sessions = sessionsOf(input.history.milkings, now, input.timeZone);
  const levels = [0.8 * size, size];
  const reached: (number | null)[] = levels.map((l) => (input.volume! >= l ? now : null));
  let volume = input.volume;
  /** Adds `litres` linearly from `from` over `lengthMs`, marking the levels crossed. */
  const add = (from: number, lengthMs: number, litres: number) => {
    levels.forEach((level, i) => {
      if (reached[i] === null && volume + litres >= level && litres > 0) reached[i] = from + ((level - volume) / litres) * lengthMs;
    });
    volume += litres;
  };
  if (sessions.length > 0) {
    const since = input.milkingSince ? Date.parse(input.milkingSince) : null;
    if (since !== null && since <= now) {
      // The milking under way: its session's litres not yet in, over what is left of its length.
      const minute = localMinuteOf(since, input.timeZone);
      const s = sessions.reduce((a, b) => (Math.abs(wrap(minute, b.minute)) < Math.abs(wrap(minute, a.minute)) ? b : a));
      const done = Math.min(1, (now - since) / s.lengthMs);
      add(now, Math.max(MIN, since + s.lengthMs - now), s.added * (1 - done));
    }
    const upcoming: { at: number; s: Session }[] = [];
    for (const s of sessions) {
      for (let first = nextAtMinute(since !== null ? Math.max(now, since + 60 * MIN) : now, s.minute, input.timeZone), d = 0; d < CAPACITY.HORIZON_DAYS; d++) {
        const at = first + d * DAY;
        upcoming.push({ at: at + wrap(s.minute, localMinuteOf(at, input.timeZone)) * MIN, s });
      }
    }
    upcoming.sort((a, b) => a.at - b.at);
    for (const u of upcoming) {
      if (reached[1] !== null) break;
      add(u.at, u.s.lengthMs, u.s.added);
    }
  }
  const [at80, atFull] = reached.map((t) => (t === null ? null : new Date(Math.round(t / MIN) * MIN).toISOString()));
  return {
    at80: at80 ?? null,
    atFull: atFull ?? null,
    over80: input.volume >= 0.8 * size,
    ...base,
    fullBeforePickup: atFull !== null && atFull !== undefined && pickup !== null && Date.parse(atFull) < pickup.at,
  };
};
