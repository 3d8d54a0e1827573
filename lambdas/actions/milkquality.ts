import { LOOKUPS_SHOWN, milkQualityContracts as contracts, type MilkView } from '../../shared/api/actions/milk-quality';
import { resolveRange } from '../../shared/api/range';
import { CHART_POINT_CAP } from '../../shared/constants';
import { DAIRY_COMPANY_SUPPLIER, WESTLANDS_SUPPLIER, type Farm, type Supplier } from '../../shared/entities/farm';
import { activityId, type ActivityKind } from '../../shared/telemetry/activities';
import { rangePoint, type ChartPoint } from '../../shared/telemetry/chart-series';
import { vatThresholds } from '../../shared/telemetry/display-buckets';
import { vatSeries } from '../../shared/telemetry/vat-series';
import type { Reading } from '../../shared/telemetry/reading';
import { EMPTY_COLUMNS } from '../../shared/telemetry/reading-columns';
import type { StoredActivity } from '../ports/readings';
import type { Caller } from '../lib/caller';
import { serve, type ServedAction } from '../lib/dispatch';
import { ForbiddenError, ValidationError } from '../lib/errors';
import type { Logger } from '../lib/logger';
import type { Ports } from '../ports/action-ports';
import { toVat } from './support/vats';

/** The series the thinning keeps the extremes of: the dashboard range's (lambdas/actions/farmer-activity.ts). */
const CHART_SERIES = ['temp1', 'milk_volume', 'milk_in', 'water_in'] as const;

/** Who each view serves and the message a farm outside it gets (a 403, like an unknown number). */
const VIEWS: Record<MilkView, { readonly supplier: Supplier; readonly refused: (supplyNumber: string) => string }> = {
  milkquality: { supplier: DAIRY_COMPANY_SUPPLIER, refused: (n) => `${n} is not a dairy-company supply number.` },
  westlands: { supplier: WESTLANDS_SUPPLIER, refused: (n) => `${n} is not a Westlands supply number.` },
};

/**
 * The farm of a supply number as the view may see it. A farm is the view's by its supplier code
 * (never by how the number looks); Admin sees every farm. An unknown number is refused with the
 * same words as another supplier's, so the view cannot probe which numbers exist. The spec's
 * 5-digit dairy-company numbers are stored with or without FON: FON12345 also finds 12345.
 */
const farmOfView = async (farms: Ports['farms'], caller: Caller, view: MilkView, supplyNumber: string): Promise<Farm> => {
  const digits = /^FON(\d{5})$/.exec(supplyNumber)?.[1];
  const farm = (await farms.findFarmBySupplyNumber(supplyNumber)) ?? (digits ? await farms.findFarmBySupplyNumber(digits) : undefined);
  const admin = caller.groups.includes('Admin');
  if (!farm || (!admin && farm.supplier !== VIEWS[view].supplier)) throw new ForbiddenError(VIEWS[view].refused(supplyNumber));
  return farm;
};

/** A chart point of the partner views: the dashboard's series, the state (CSV phystate) and the quality estimates. */
const milkPoint = (r: Reading): ChartPoint => {
  const out = rangePoint(r);
  if (r.state_machine !== null) out.state_machine = r.state_machine;
  const q = r.quality;
  if (q && (typeof q.currentEstCFU === 'number' || typeof q.pickupEstCFU === 'number')) {
    out.quality = {
      ...(typeof q.currentEstCFU === 'number' ? { currentEstCFU: q.currentEstCFU } : {}),
      ...(typeof q.pickupEstCFU === 'number' ? { pickupEstCFU: q.pickupEstCFU } : {}),
    };
  }
  return out;
};

const wire = (a: StoredActivity | undefined) => (a ? { _id: activityId(a.device_id, a), kind: a.kind, device_id: a.device_id, activity: { start: a.start, end: a.end } } : null);

type MilkDeps = Pick<Ports, 'farms' | 'readings' | 'lookups' | 'now'>;

/**
 * One vat's milk data over the farm's local days fromDate to toDate (operator §3, §7), read and
 * thinned like the dashboard range (same columns, same 10,000-point cap), logged as a lookup.
 */
const milkData = async (view: MilkView, input: { supplyNumber: string; vatNumber: number; fromDate: string; toDate: string }, caller: Caller, deps: MilkDeps, log: Logger) => {
  const farm = await farmOfView(deps.farms, caller, view, input.supplyNumber);
  const device = (await deps.farms.listDevicesOfFarm(farm._id)).find((d) => d.status === 1 && d.vat_number === input.vatNumber);
  if (!device) throw new ValidationError(`Vat ${input.vatNumber} is not a vat of ${farm.fonterra_id}.`);
  const r = resolveRange({ startDate: input.fromDate, endDate: input.toDate }, { now: deps.now(), timeZone: farm.timezone, datesAllowed: true, fields: { start: 'fromDate', end: 'toDate' } });
  if (!r.ok) throw new ValidationError(r.message);
  const { range } = r;

  const at = deps.now().toISOString();
  const profile = await deps.farms.getUser(caller.userId);
  log.info('milk data lookup', { view, user: caller.userId, username: caller.username, email: profile?.email, farm: farm._id, fonterra_id: farm.fonterra_id, vat: input.vatNumber, fromDate: range.startDate, toDate: range.endDate });
  await deps.lookups.putLookup({
    at,
    user_id: caller.userId,
    username: caller.username,
    ...(profile?.email ? { email: profile.email } : {}),
    view,
    farm_id: farm._id,
    fonterra_id: farm.fonterra_id,
    vat_number: input.vatNumber,
    fromDate: range.startDate,
    toDate: range.endDate,
  });

  const [[columns = EMPTY_COLUMNS], activities] = await Promise.all([
    deps.readings.readRangeColumns([device._id], range.from, range.to),
    deps.readings.listActivities(device._id, range.from, range.to, ['storage', 'collection', 'milking', 'cip']),
  ]);
  const newest = (kind: ActivityKind) =>
    activities.filter((a) => a.kind === kind).sort((a, b) => b.start.published_at.localeCompare(a.start.published_at))[0];
  return {
    farm: { _id: farm._id, fonterra_id: farm.fonterra_id, ...(farm.name ? { name: farm.name } : {}), ...(farm.supplier ? { supplier: farm.supplier } : {}), timezone: farm.timezone },
    device: toVat(device),
    range,
    // The CSV is built from these points: the spec's full cap, not a chart's width.
    ...vatSeries(columns, { maxPoints: CHART_POINT_CAP, series: CHART_SERIES, thresholds: vatThresholds(device.vat_size), point: milkPoint }),
    lastStorage: wire(newest('storage')),
    lastCollection: wire(newest('collection')),
    lastMilking: wire(newest('milking')),
    lastCIP: wire(newest('cip')),
  };
};

/** /api/milkquality (operator §7): Milk Quality and Westlands staff, and Admin (the contracts' rules). */
export const milkQualityHandlers: readonly ServedAction[] = [
  serve(contracts.MILK_QUALITY_DATA, ['farms', 'readings', 'lookups', 'now'], async (input, { caller, deps, log }) => milkData('milkquality', input, caller, deps, log)),

  serve(contracts.WESTLANDS_FARMS, ['farms'], async (_input, { deps }) => {
    const farms = await deps.farms.listFarms();
    return farms
      .filter((f) => f.supplier === WESTLANDS_SUPPLIER)
      .sort((a, b) => a.fonterra_id.localeCompare(b.fonterra_id))
      .map((f) => ({ _id: f._id, fonterra_id: f.fonterra_id }));
  }),

  serve(contracts.WESTLANDS_DATA, ['farms', 'readings', 'lookups', 'now'], async (input, { caller, deps, log }) => milkData('westlands', input, caller, deps, log)),

  serve(contracts.MILK_DATA_LOOKUPS, ['lookups'], async (_input, { deps }) => deps.lookups.listLookups(LOOKUPS_SHOWN)),
];
