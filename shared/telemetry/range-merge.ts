import type { lastAllColumnsItemSchema, lastAllItemSchema } from '../api/actions/farmer-activity';
import type * as z from 'zod';
import { isOnMains } from './device-message';
import { lastTime, mergeColumns } from './range-columns';

type LastAllItem = z.infer<typeof lastAllItemSchema>;
type LastAllColumnsItem = z.infer<typeof lastAllColumnsItemSchema>;
/** What both forms of the answer share: the shadings and markers. */
type Shadings = Pick<LastAllItem, 'range' | 'since' | 'phyStateData' | 'batteryData' | 'agitatorData' | 'outageData'>;
type Period = LastAllItem['outageData'][number];
type Run = LastAllItem['phyStateData'][number];

/**
 * The cursor for FARMER_DASHBOARD_LAST_ALL's `since`: the newest reading every vat of an
 * answer already has, i.e. the earliest of the vats' last points; a vat without points holds the
 * answer's end. Undefined for an answer without vats.
 */
export const lastAllCursor = (answer: readonly (LastAllItem | LastAllColumnsItem)[]): string | undefined => {
  const lastOf = (v: LastAllItem | LastAllColumnsItem) => {
    if ('detailData' in v) return v.detailData.at(-1)?.published_at;
    const t = lastTime(v.columns);
    return t === undefined ? undefined : new Date(t).toISOString();
  };
  const lasts = answer.map((v) => lastOf(v) ?? v.range.to);
  return lasts.length ? lasts.reduce((a, b) => (b < a ? b : a)) : undefined;
};

/** Periods (stops, outages): the old ones that began before the cursor, then the new ones; a stop open across it joins the new one it continues as. */
const mergePeriods = (old: readonly Period[], fresh: readonly Period[], since: string, from: string): Period[] => {
  const kept = old.filter((p) => p.start.published_at < since && (p.end === null || p.end.published_at >= from));
  const last = kept.at(-1);
  const first = fresh[0];
  if (last && first && (last.end === null || first.start.published_at < last.end.published_at)) {
    return [...kept.slice(0, -1), { start: last.start, end: first.end }, ...fresh.slice(1)];
  }
  return [...kept, ...fresh];
};

/** State runs: a run ends where the next begins, so the old last run is ended or extended at the first new one. */
const mergeRuns = (old: readonly Run[], fresh: readonly Run[], since: string, from: string): Run[] => {
  const kept = old.filter((r) => r.start < since && r.end >= from);
  const last = kept.at(-1);
  const first = fresh[0];
  if (!last || !first) return [...kept, ...fresh];
  if (last.phystate === first.phystate) return [...kept.slice(0, -1), { ...last, end: first.end }, ...fresh.slice(1)];
  return [...kept.slice(0, -1), { ...last, end: first.start }, ...fresh];
};

/** The shadings of a whole-range answer with those of a `since` answer merged in. */
const mergeShadings = (old: Shadings, fresh: Shadings, since: string) => {
  const from = fresh.range.from;
  const lastBattery = old.batteryData.filter((b) => b.published_at <= since).at(-1);
  const newBattery = fresh.batteryData[0] && lastBattery && isOnMains(fresh.batteryData[0].raw.status) === isOnMains(lastBattery.raw.status) ? fresh.batteryData.slice(1) : fresh.batteryData;
  return {
    phyStateData: mergeRuns(old.phyStateData, fresh.phyStateData, since, from),
    batteryData: [...old.batteryData.filter((b) => b.published_at <= since), ...newBattery],
    agitatorData: { listStop: mergePeriods(old.agitatorData.listStop, fresh.agitatorData.listStop, since, from) },
    outageData: mergePeriods(old.outageData, fresh.outageData, since, from),
  };
};

/**
 * One vat's whole-range answer with a `since` answer merged in: what the whole range asked again
 * would give (the thinning of the older points aside). Points before the range's start, which moves
 * on for the "last 2 days" page, are dropped.
 */
const mergeLastAllItem = (old: LastAllItem, fresh: LastAllItem): LastAllItem => {
  const since = fresh.since;
  if (since === undefined) return fresh;
  const from = fresh.range.from;
  const within = <T extends { published_at: string }>(points: readonly T[], add: readonly T[]) => [
    ...points.filter((p) => p.published_at >= from && p.published_at <= since),
    ...add,
  ];
  const droppedPoints = old.detailData.filter((p) => p.published_at > since).length;
  const { since: _cursor, ...rest } = fresh;
  return {
    ...rest,
    points: Math.max(0, old.points - droppedPoints) + fresh.points,
    detailData: within(old.detailData, fresh.detailData),
    coolerData: within(old.coolerData, fresh.coolerData),
    ...mergeShadings(old, fresh, since),
  };
};

/** mergeLastAllItem for the columnar form (form=columns). */
const mergeLastAllColumnsItem = (old: LastAllColumnsItem, fresh: LastAllColumnsItem): LastAllColumnsItem => {
  const since = fresh.since;
  if (since === undefined) return fresh;
  const sinceMs = Date.parse(since);
  const base = Date.parse(old.columns.base);
  const droppedPoints = old.columns.t.filter((dt) => base + dt > sinceMs).length;
  const { since: _cursor, ...rest } = fresh;
  return {
    ...rest,
    points: Math.max(0, old.points - droppedPoints) + fresh.points,
    columns: mergeColumns(old.columns, fresh.columns, Date.parse(fresh.range.from), sinceMs),
    ...mergeShadings(old, fresh, since),
  };
};

/**
 * A whole-range answer with a `since` answer merged in, vat by vat. Undefined when the vats are
 * not the same ones (one added or retired): the caller asks for the whole range then.
 */
export const mergeLastAll = (old: readonly LastAllItem[], fresh: readonly LastAllItem[]): LastAllItem[] | undefined => {
  if (old.length !== fresh.length || old.some((v, i) => v.device._id !== fresh[i]?.device._id)) return undefined;
  return fresh.map((v, i) => mergeLastAllItem(old[i] as LastAllItem, v));
};

/** mergeLastAll for the columnar form. */
export const mergeLastAllColumns = (old: readonly LastAllColumnsItem[], fresh: readonly LastAllColumnsItem[]): LastAllColumnsItem[] | undefined => {
  if (old.length !== fresh.length || old.some((v, i) => v.device._id !== fresh[i]?.device._id)) return undefined;
  return fresh.map((v, i) => mergeLastAllColumnsItem(old[i] as LastAllColumnsItem, v));
};
