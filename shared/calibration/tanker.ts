import { WATCHMAN_DEFAULTS } from '../constants';

/**
 * Dockets against the vat: what the tanker took at a collection beside what left the
 * vat. The tanker's figure is the dairy company's docket, or on other farms the pickup the farmer
 * entered on /dts/pickup: the one nearest the collection's start within the matching window
 * (Watchman's matching pickup minutes) of its start or end. Calibration's COLLECTIONS uses the same match.
 */
const TANKER_MATCH_MINUTES = WATCHMAN_DEFAULTS.matching_pickup_minutes;

/** The item nearest `start` whose time lies within the matching window of [start, end]. */
const nearestWithin = <T>(items: readonly T[], at: (t: T) => string, start: string, end: string, minutes: number = TANKER_MATCH_MINUTES): T | undefined => {
  const s = Date.parse(start);
  const e = Date.parse(end);
  const w = minutes * 60_000;
  return items
    .filter((i) => Date.parse(at(i)) >= s - w && Date.parse(at(i)) <= e + w)
    .sort((a, b) => Math.abs(Date.parse(at(a)) - s) - Math.abs(Date.parse(at(b)) - s))[0];
};

export interface TankerFigure {
  readonly volume: number;
  readonly temperature: number | null;
  readonly source: 'docket' | 'pickup';
  /** When the docket or pickup says the tanker collected. */
  readonly at: string;
}

/** The tanker's figure for a collection: the docket first (the company's word), else the farmer's entry. */
export const tankerFigureFor = (
  collection: { readonly start: string; readonly end: string },
  dockets: readonly { readonly PickupDateTime: string; readonly Volume: number; readonly Temperature?: number | null | undefined }[],
  pickups: readonly { readonly datetime: string; readonly volume: number; readonly temperature: number | null }[],
  minutes: number = TANKER_MATCH_MINUTES,
): TankerFigure | null => {
  const docket = nearestWithin(dockets, (d) => d.PickupDateTime, collection.start, collection.end, minutes);
  if (docket) return { volume: docket.Volume, temperature: docket.Temperature ?? null, source: 'docket', at: docket.PickupDateTime };
  const pickup = nearestWithin(pickups, (p) => p.datetime, collection.start, collection.end, minutes);
  return pickup ? { volume: pickup.volume, temperature: pickup.temperature, source: 'pickup', at: pickup.datetime } : null;
};

/** The vat's drop minus the tanker's volume, in litres and as a share of the tanker's volume (%), one decimal. */
export const tankerDifference = (vatDrop: number, tanker: number): { litres: number; percent: number | null } => ({
  litres: Math.round(vatDrop - tanker),
  percent: tanker > 0 ? Math.round(((vatDrop - tanker) / tanker) * 1000) / 10 : null,
});

/** Alert 702 'Vat reading differs from tanker': the median difference of the last 5 collections beyond 3 %. */
const TANKER_ALERT = { collections: 5, raisePercent: 3, clearPercent: 2.5 } as const;

type TankerVerdict = { readonly status: 'differs' | 'agrees'; readonly median: number } | { readonly status: 'unknown' };

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

/**
 * The latest TANKER_ALERT.collections differences (% of the tanker's volume, signed, newest first):
 * their median beyond raisePercent either way differs; within clearPercent agrees (the alert may
 * clear; between the two nothing changes, so a vat near the line does not raise and clear with
 * every collection). Fewer collections with a tanker figure: unknown.
 */
export const tankerVerdict = (percents: readonly number[]): TankerVerdict => {
  if (percents.length < TANKER_ALERT.collections) return { status: 'unknown' };
  const m = Math.round(median(percents.slice(0, TANKER_ALERT.collections)) * 10) / 10;
  if (Math.abs(m) > TANKER_ALERT.raisePercent) return { status: 'differs', median: m };
  if (Math.abs(m) <= TANKER_ALERT.clearPercent) return { status: 'agrees', median: m };
  return { status: 'unknown' };
};
