import type { DetailPoint } from '@shared/api/actions/farmer-activity';
import type { RuleStatus } from '@shared/compliance/cooling-rules';
import { formatWhen } from '../../../lib/time-format';
import type { MilkingBrief } from '../api/milking-brief';
import type { MilkingItem } from '../api/milking-list';
import type { MilkingOne, RuleResultWire } from '../api/milking-one';

/*
 * The milking screens' figures (farmer §2.6, §9), pure so they are tested without a DOM. Times are
 * the farm's clock, as on every farmer screen (lib/time-format.ts).
 */

/** 'DD MMM YYYY HH:mm' (§9) in the farm's zone; '—' when there is none. */
export const dateTime = (iso: string | null | undefined, timeZone: string | undefined): string => (iso ? formatWhen(iso, timeZone) : '—');

/** Litres to the nearest 10 (§9). */
export const litres = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : `${(Math.round(v / 10) * 10).toLocaleString('en-NZ')} L`);

/** Degrees to 1 decimal (§9). */
export const degrees = (t: number | null | undefined): string => (t === null || t === undefined ? '—' : `${(Math.round(t * 10) / 10).toFixed(1)} °C`);

export const speed = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : `${v.toFixed(1)} L/min`);

/** A duration in whole minutes as '1 h 35 min' (or '45 min'). */
export const duration = (minutes: number | null | undefined): string => {
  if (minutes === null || minutes === undefined) return '—';
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h > 0 ? `${h} h ${m} min` : `${m} min`;
};

/** The farm's milkings grouped per vat in vat order, each vat's milkings oldest first (for its charts). */
export const byVat = (list: readonly MilkingItem[]): { readonly vatNumber: number; readonly milkings: MilkingItem[] }[] => {
  const groups = new Map<number, MilkingItem[]>();
  for (const m of list) groups.set(m.config.vat_number, [...(groups.get(m.config.vat_number) ?? []), m]);
  return [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([vatNumber, milkings]) => ({
      vatNumber,
      milkings: milkings.sort((a, b) => a.activity.start.published_at.localeCompare(b.activity.start.published_at)),
    }));
};

interface MilkingXY {
  readonly x: number;
  readonly y: number;
}

/** One value per milking at its start time, leaving out milkings without it. */
export const perMilking = (milkings: readonly MilkingItem[], value: (m: MilkingItem) => number | null | undefined): MilkingXY[] =>
  milkings.flatMap((m) => {
    const y = value(m);
    const x = Date.parse(m.activity.start.published_at);
    return y === null || y === undefined || !Number.isFinite(y) || Number.isNaN(x) ? [] : [{ x, y }];
  });

/** A scatter point: a finished milking's litres at its start, and the milking it opens. */
export interface ScatterPoint extends MilkingXY {
  readonly id: string;
}

/** The comparison scatter's points per vat: each milking's productivity (litres milked) at its start. */
export const scatterPoints = (milkings: readonly MilkingItem[]): ScatterPoint[] =>
  milkings.flatMap((m) => {
    const y = m.summary.productivity_l;
    const x = Date.parse(m.activity.start.published_at);
    return y === null || Number.isNaN(x) ? [] : [{ x, y, id: m._id }];
  });

/** The detail's comparison: the vat's other milkings, and this one apart so it stands out. */
export const briefPoints = (list: MilkingBrief['list'], currentId: string): { readonly others: ScatterPoint[]; readonly current: ScatterPoint[] } => {
  const points = list.flatMap((m) => {
    const x = Date.parse(m.start);
    return m.productivity_l === null || Number.isNaN(x) ? [] : [{ x, y: m.productivity_l, id: m._id }];
  });
  return { others: points.filter((p) => p.id !== currentId), current: points.filter((p) => p.id === currentId) };
};

/**
 * The cooling trend's readings (farmer §2.6): from the milking start up to, not including, the first
 * reading in state 'empty' (the vat was collected or drained: what follows is not this milk).
 */
export const coolingTrace = (points: readonly DetailPoint[], start: string): DetailPoint[] => {
  const from = Date.parse(start);
  const sorted = points.filter((p) => Date.parse(p.published_at) >= from).sort((a, b) => a.published_at.localeCompare(b.published_at));
  const empty = sorted.findIndex((p) => p.state_machine === 'empty');
  return empty === -1 ? sorted : sorted.slice(0, empty);
};

/** The chart's markers (§2.6): milking start and end, and 4 and 6 hours after the start. */
export const markersOf = (m: MilkingOne['markers']): { readonly label: string; readonly at: number }[] =>
  [
    { label: 'Start', at: m.start },
    { label: 'End', at: m.end },
    { label: '+4 h', at: m.h4 },
    { label: '+6 h', at: m.h6 },
  ].flatMap((k) => (k.at ? [{ label: k.label, at: Date.parse(k.at) }] : []));

export const STATUS_LABEL: Readonly<Record<RuleStatus, string>> = {
  passed: 'Passed',
  failed: 'Failed',
  pending: 'Pending',
  no_data: 'No data',
  not_applicable: 'Not applicable',
};

/** What a rule's row says besides its status: when it was met or broken, or why it is undecided. */
export const ruleWhen = (r: Pick<RuleResultWire, 'rule' | 'status' | 'met_at' | 'failed_at' | 'deadline'>, timeZone: string | undefined): string => {
  switch (r.status) {
    case 'passed':
      return `Met at ${dateTime(r.met_at, timeZone)}`;
    case 'failed':
      return `Failed at ${dateTime(r.failed_at, timeZone)}`;
    case 'pending':
      // R1 and R2 have a deadline; R3 and R4 are judged when the milk is collected or milked into again.
      return (r.rule === 'R1' || r.rule === 'R2') && r.deadline ? `Due by ${dateTime(r.deadline, timeZone)}` : 'Not decided yet';
    case 'no_data':
      return 'Readings missing: it cannot be judged';
    case 'not_applicable':
      return 'Does not apply to this milking';
  }
};
