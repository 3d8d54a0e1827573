/**
 * Display rules of a vat card (farmer §2.5, §9). Pure, so the thresholds are tested without a DOM.
 */

import type { CoolingTarget } from '@shared/compliance/cooling-forecast';

/**
 * §9 "Milk level bar colours: thresholds 150 and 180 mm, max scale 2000": the bar is the milk's
 * height on a 2000 mm scale, coloured by that height (under 150 mm low, under 180 mm mid). It is a
 * level, not the vat's fullness: the card's volume percent says how full the vat is, and a vat
 * taller than 2 m fills the bar before it is full, so the bar says 'over 2000 mm' then
 * (decision 062).
 */
export const LEVEL_SCALE_MM = 2000;
const LEVEL_LOW_MM = 150;
const LEVEL_MID_MM = 180;

type LevelBand = 'low' | 'mid' | 'high';

const finite = (n: number | null | undefined): n is number => n !== null && n !== undefined && Number.isFinite(n);

/** The band of a milk height: under 150 mm low, under 180 mm mid, then high (§9). */
export const levelBand = (levelMm: number): LevelBand => (levelMm < LEVEL_LOW_MM ? 'low' : levelMm < LEVEL_MID_MM ? 'mid' : 'high');

/**
 * The fill (0–100: the level's share of the 2000 mm scale, clamped), the band that colours it, and
 * whether the level is over the scale. Undefined without a level.
 */
export const levelGraphic = (levelMm: number | null | undefined): { readonly fillPercent: number; readonly band: LevelBand; readonly overScale: boolean } | undefined => {
  if (!finite(levelMm)) return undefined;
  return { fillPercent: Math.min(100, Math.max(0, (levelMm * 100) / LEVEL_SCALE_MM)), band: levelBand(levelMm), overScale: levelMm > LEVEL_SCALE_MM };
};

/** §9 "Vat temperature bar thresholds -10, 0, 6, 10 over the range -10 to 20". */
type TemperatureBand = 'freezing' | 'good' | 'warm' | 'hot';

export const temperatureBand = (celsius: number): TemperatureBand => (celsius < 0 ? 'freezing' : celsius <= 6 ? 'good' : celsius <= 10 ? 'warm' : 'hot');

/** Operator §3 Reading: agitator_status 1 on, 0 off, otherwise none. */
export const agitatorLabel = (status: number | null | undefined): 'Running' | 'Stopped' | undefined =>
  status === 1 ? 'Running' : status === 0 ? 'Stopped' : undefined;

const UNITS: readonly (readonly [Intl.RelativeTimeFormatUnit, number])[] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'always' });

/** '3 hours ago' (whole units, the largest that fits); a time at or after now reads 'now'. */
export const relativeTime = (iso: string, now: number): string | undefined => {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return undefined;
  const ago = now - at;
  for (const [unit, ms] of UNITS) {
    if (ago >= ms) return relative.format(-Math.floor(ago / ms), unit);
  }
  return ago >= 1000 ? relative.format(-Math.floor(ago / 1000), 'second') : 'now';
};

/** Volume as a percent of the vat's size, whole; undefined for a vat without a size. */
export const volumePercent = (litres: number, vatSize: number): number | undefined =>
  vatSize > 0 ? Math.round((litres / vatSize) * 100) : undefined;

/** A span of time on the cooling clock: '1 h 12 min', '45 min', '2 h' (whole minutes, rounded up). */
export const countdownText = (ms: number): string => {
  const minutes = Math.max(0, Math.ceil(ms / 60_000));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h === 0 ? `${m} min` : m === 0 ? `${h} h` : `${h} h ${m} min`;
};

interface CoolingLine {
  readonly rule: 'R1' | 'R2';
  /** '6 °C by 14:20 — 1 h 12 min'; '6 °C reached at 13:40'; '6 °C by 14:20 — deadline passed'. */
  readonly deadline: string;
  /** 'Predicted 14:05'; 'Predicted 15:40 — after the deadline'; 'Not cooling: no 6 °C time predicted'; undefined once reached. */
  readonly prediction: string | undefined;
  /** At risk (the alert's test) or predicted past the deadline at all. */
  readonly risk: boolean;
}

/**
 * The vat card's cooling compliance clock: per §9 rule (10 °C, 6 °C) its deadline as a
 * countdown and the forecast's predicted time, in the farm's clock (`clock` formats 'HH:mm'). A
 * vat that has gone quiet (`quiet`) keeps its deadlines but shows no prediction: the last one was
 * fitted to readings that stopped, and a calm '6 °C by …' would hide that nobody knows.
 */
export const coolingLines = (
  targets: readonly CoolingTarget[],
  fitted: boolean,
  now: number,
  clock: (at: string) => string,
  quiet = false,
): CoolingLine[] =>
  targets.map((t) => {
    const limit = `${t.limit} °C`;
    if (t.reached_at !== null) return { rule: t.rule, deadline: `${limit} reached at ${clock(t.reached_at)}`, prediction: undefined, risk: false };
    const left = Date.parse(t.deadline) - now;
    const deadline = `${limit} by ${clock(t.deadline)} — ${left > 0 ? countdownText(left) : 'deadline passed'}`;
    // Any prediction past the deadline says so; the alert (at_risk) waits for the margin.
    const late = t.predicted_at !== null && Date.parse(t.predicted_at) > Date.parse(t.deadline);
    const prediction = quiet
      ? 'No prediction: the vat is not sending'
      : !fitted
        ? 'Predicted after 10 minutes of cooling'
        : t.predicted_at === null
          ? `Not cooling: no ${limit} time predicted`
          : `Predicted ${clock(t.predicted_at)}${late ? ' — after the deadline' : ''}`;
    // The last forecast's risk stays red: a quiet vat is no reason to look calmer.
    return { rule: t.rule, deadline, prediction, risk: t.at_risk || late };
  });
/** A vat whose newest reading is older than this has gone quiet (stale data is loud). */
const STALE_AFTER_MS = 15 * 60_000;

/**
 * When a vat went quiet: the time of its newest reading when that is over 15 minutes old (or
 * unknown: no reading at all is no data either), else undefined (the vat is sending).
 */
export const staleSince = (newest: string | null | undefined, now: number): { readonly at: string | undefined } | undefined => {
  const at = newest ? Date.parse(newest) : Number.NaN;
  if (Number.isNaN(at)) return { at: undefined };
  return now - at > STALE_AFTER_MS ? { at: newest ?? undefined } : undefined;
};
