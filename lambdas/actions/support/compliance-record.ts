import { farmerComplianceContracts as contracts, EXCEPTION_KINDS, type ComplianceMilking, type MilkingVerdict } from '../../../shared/api/actions/farmer-compliance';
import { COOLING_RULE_TEXT, COOLING_RULES, type RuleResult } from '../../../shared/compliance/cooling-rules';
import { resolveCompliancePeriod } from '../../../shared/compliance/season';
import { activityId } from '../../../shared/telemetry/activities';
import { downsample } from '../../../shared/telemetry/downsample';
import type { Reading } from '../../../shared/telemetry/reading';
import type { StoredActivity } from '../../ports/readings';
import { serve, type ServedAction } from '../../lib/dispatch';
import { ValidationError } from '../../lib/errors';
import { HOLD_LOOKAHEAD_DAYS, judgeMilking, milkingWindow, type MilkingWindow } from './milking-compliance';

const DAY = 86_400_000;
const iso = (t: number) => new Date(t).toISOString();
/** Milkings are judged in stretches of this many days of starts, each read once (a season of readings never sits in memory at once). */
const CHUNK_DAYS = 30;
/** Points of the temperature curve a failed milking carries for the PDF's chart. */
const CURVE_POINTS = 240;

const verdictOf = (rules: readonly RuleResult[]): MilkingVerdict =>
  rules.some((r) => r.status === 'failed') ? 'failed' : rules.every((r) => r.status === 'passed' || r.status === 'not_applicable') ? 'compliant' : 'undecided';

const overlaps = (a: StoredActivity, from: string, to: string) => a.start.published_at <= to && (a.end === null || a.end.published_at >= from);

/** One milking of the record: the page's verdict, the exceptions around it, and for a failure its peak and curve. */
const recordOf = (m: StoredActivity, vatNumber: number, w: MilkingWindow, readings: readonly Reading[], exceptions: readonly StoredActivity[], now: number): ComplianceMilking => {
  const rules = judgeMilking(m, w, readings, now);
  const verdict = verdictOf(rules);
  const inWindow = readings.filter((r) => r.published_at >= w.from && r.published_at <= w.to);
  const firstFailure = rules
    .map((r) => r.failed_at)
    .filter((t): t is string => t !== null)
    .sort()[0];
  const after = firstFailure ? inWindow.filter((r) => r.published_at >= firstFailure && r.temp1 !== null).map((r) => r.temp1 as number) : [];
  return {
    _id: activityId(m.device_id, m),
    vat_number: vatNumber,
    start: m.start.published_at,
    end: m.end?.published_at ?? null,
    volume: m.end?.milk_volume ?? null,
    verdict,
    rules,
    peak_c: after.length ? Math.max(...after) : null,
    exceptions: exceptions.filter((e) => overlaps(e, w.from, w.to)).map((e) => ({ kind: e.kind as (typeof EXCEPTION_KINDS)[number], start: e.start.published_at, end: e.end?.published_at ?? null })),
    curve:
      verdict === 'failed'
        ? downsample(inWindow, CURVE_POINTS, { series: ['temp1'] }).flatMap((r) => (r.temp1 === null ? [] : [{ t: r.published_at, c: Math.round(r.temp1 * 10) / 10 }]))
        : [],
  };
};

/** /api/farmer/activity FARMER_COMPLIANCE_RECORD: the cooling compliance record of a period; farm member. */
export const farmerComplianceHandlers: readonly ServedAction[] = [
  serve(contracts.FARMER_COMPLIANCE_RECORD, ['farms', 'readings', 'now'], async (input, { farm, deps }) => {
    const nowDate = deps.now();
    const now = nowDate.getTime();
    const period = resolveCompliancePeriod(input, nowDate, farm.timezone);
    if (!period.ok) throw new ValidationError(period.message);
    const { from, to } = period.range;
    const vats = (await deps.farms.listDevicesOfFarm(farm._id)).filter((d) => d.status === 1).sort((a, b) => a.vat_number - b.vat_number);
    const lookahead = iso(Math.min(Date.parse(to) + HOLD_LOOKAHEAD_DAYS * DAY, now));
    const perVat = await Promise.all(
      vats.map(async (d) => {
        const [held, exceptions] = await Promise.all([
          deps.readings.listActivities(d._id, from, lookahead, ['milking', 'collection']),
          // An outage or power cut that began before the period can reach into its first milking.
          deps.readings.listActivities(d._id, iso(Date.parse(from) - HOLD_LOOKAHEAD_DAYS * DAY), lookahead, [...EXCEPTION_KINDS]),
        ]);
        const milkings = held.filter((a) => a.kind === 'milking' && a.start.published_at <= to).sort((a, b) => a.start.published_at.localeCompare(b.start.published_at));
        const out: ComplianceMilking[] = [];
        for (let i = 0; i < milkings.length; ) {
          const chunkEnd = Date.parse((milkings[i] as StoredActivity).start.published_at) + CHUNK_DAYS * DAY;
          const chunk: { m: StoredActivity; w: MilkingWindow }[] = [];
          for (; i < milkings.length && Date.parse((milkings[i] as StoredActivity).start.published_at) < chunkEnd; i++) {
            const m = milkings[i] as StoredActivity;
            chunk.push({ m, w: milkingWindow(m, held, now) });
          }
          const readFrom = (chunk[0] as { w: MilkingWindow }).w.from;
          const readTo = chunk.map((c) => c.w.to).sort().at(-1) as string;
          const readings = await deps.readings.readRange(d._id, readFrom, readTo);
          for (const { m, w } of chunk) out.push(recordOf(m, d.vat_number, w, readings, exceptions, now));
        }
        return { vat_number: d.vat_number, milkings: out };
      }),
    );
    return {
      farm: { _id: farm._id, name: farm.name ?? '', supply_number: farm.fonterra_id, timezone: farm.timezone },
      period: period.range,
      rules: COOLING_RULES.map((rule) => ({ rule, text: COOLING_RULE_TEXT[rule] })),
      generated_at: nowDate.toISOString(),
      vats: perVat,
    };
  }),
];
