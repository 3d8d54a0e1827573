import { CAPACITY, forecastCapacity } from '../../shared/alerts/capacity-forecast';
import { farmerActivityContracts as contracts, type Herd } from '../../shared/api/actions/farmer-activity';
import { resolveRange, type ResolvedRange } from '../../shared/api/range';
import { forecastCooling } from '../../shared/compliance/cooling-forecast';
import { coolingRuleDeadlines } from '../../shared/compliance/cooling-rules';
import { tankerDifference, tankerFigureFor } from '../../shared/calibration/tanker';
import { savedMatchingMinutes } from '../alerts/tanker-check';
import { CHART_POINT_CAP, DEFAULT_RANGE_DAYS, MAX_RANGE_DAYS } from '../../shared/constants';
import type { Device } from '../../shared/entities/device';
import { isDairyCompanyFarm, type Farm } from '../../shared/entities/farm';
import { activityId, type ActivityKind } from '../../shared/telemetry/activities';
import { controllerNow, detailPoint } from '../../shared/telemetry/chart-series';
import { vatThresholds } from '../../shared/telemetry/display-buckets';
import { downsample } from '../../shared/telemetry/downsample';
import type { Reading } from '../../shared/telemetry/reading';
import { vatSeries, vatSeriesColumns } from '../../shared/telemetry/vat-series';
import { columnsFromReadings, EMPTY_COLUMNS } from '../../shared/telemetry/reading-columns';
import type { StoredActivity } from '../ports/readings';
import { serve, type ServedAction } from '../lib/dispatch';
import { ValidationError } from '../lib/errors';
import type { Ports } from '../ports/action-ports';
import { toVat } from './support/vats';
import { farmerComplianceHandlers } from './support/compliance-record';
import { addPickupAction, deletePickupAction } from './support/pickups';
import { HOLD_LOOKAHEAD_DAYS, judgeMilking, milkingWindow } from './support/milking-compliance';

/** The ports the helpers below read. */
type ActivityDeps = Pick<Ports, 'farms' | 'readings'>;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The dashboard's history card: the last week, thin enough for a small card. */
const HISTORY_DAYS = 7;
const HISTORY_POINTS = 1_000;
/** A history card point: the volume and the temperatures of §9 (nulls kept, as the card's schema has them). */
const historyPoint = (r: Reading) => ({
  published_at: r.published_at,
  milk_level: r.milk_level,
  milk_volume: r.milk_volume,
  temp1: r.temp1,
  temp2: r.temp2,
  temp3: r.temp3,
  temp4: r.temp4,
  temp5: r.temp5,
});
/** The milking comparison scatter: the vat's milkings this many days either side. */
const BRIEF_DAYS = 15;

const iso = (t: number) => new Date(t).toISOString();
const minutesBetween = (a: string, b: string | null | undefined) => (b ? Math.round((Date.parse(b) - Date.parse(a)) / 60_000) : null);

const toWire = (a: StoredActivity) => ({
  _id: activityId(a.device_id, a),
  kind: a.kind,
  device_id: a.device_id,
  activity: { start: a.start, end: a.end },
});

/**
 * The cooling clock of the vat's last milking: while it has ended, the vat was not
 * collected after it and a §9 deadline is still ahead; null otherwise.
 */
const coolingNow = async (deps: ActivityDeps, device: Device, milking: StoredActivity | undefined, collection: StoredActivity | undefined, now: number) => {
  if (!milking?.end) return null;
  if (collection && collection.start.published_at > milking.start.published_at) return null;
  const deadlines = coolingRuleDeadlines(Date.parse(milking.start.published_at), Date.parse(milking.end.published_at));
  if (now >= Math.max(deadlines.R1, deadlines.R2)) return null;
  const readings = await deps.readings.readRange(device._id, milking.end.published_at, iso(now));
  return forecastCooling({ milking: { start: milking.start.published_at, end: milking.end.published_at }, readings, now: iso(now) });
};

const activeVats = async (deps: ActivityDeps, farmId: string) =>
  (await deps.farms.listDevicesOfFarm(farmId)).filter((d) => d.status === 1).sort((a, b) => a.vat_number - b.vat_number);

const rangeOf = (input: { startDate?: string | undefined; endDate?: string | undefined; page_index?: number | undefined }, farm: Farm, now: Date, pageDays?: number, datesForAll = false): ResolvedRange => {
  const r = resolveRange(input, { now, timeZone: farm.timezone, datesAllowed: datesForAll || farm.package !== 'Vat-Man Lite', ...(pageDays ? { pageDays } : {}) });
  if (!r.ok) throw new ValidationError(r.message);
  return r.range;
};

const milkingSummary = (a: StoredActivity) => {
  const duration = minutesBetween(a.start.published_at, a.end?.published_at);
  const productivity = a.end?.milk_volume !== null && a.end?.milk_volume !== undefined && a.start.milk_volume !== null ? a.end.milk_volume - a.start.milk_volume : null;
  return {
    duration_min: duration,
    productivity_l: productivity,
    speed_l_min: productivity !== null && duration ? Math.round((productivity / duration) * 10) / 10 : null,
  };
};

const milkingItem = (a: StoredActivity, d: Device) => ({
  ...toWire(a),
  config: { vat_size: d.vat_size, vat_number: d.vat_number },
  summary: milkingSummary(a),
});

const card = (p: StoredActivity['start']) => ({ published_at: p.published_at, plate: p.temp3, inlet: p.temp2, vat: p.temp1, volume: p.milk_volume });

const byStartDesc = (a: { activity: { start: { published_at: string } } }, b: { activity: { start: { published_at: string } } }) =>
  b.activity.start.published_at.localeCompare(a.activity.start.published_at);

/** A chart range is thinned to the spec's cap keeping the extremes of the vat and cooler series. */
const CHART_SERIES = ['temp1', 'milk_volume', 'milk_in', 'water_in'] as const;
/**
 * Points a dashboard range answer holds over all its vats: each vat gets its chart's resolution
 * or its share of this, whichever is smaller. A Lambda answer is at most 6 MB; 4 vats at the
 * spec's full cap of 10,000 could be about 7 MB.
 */
const RANGE_ANSWER_POINTS = 16_000;

/** The farm's activities of one kind over a range, newest first, with the vat they belong to. */
const farmActivities = async (deps: ActivityDeps, farmId: string, range: ResolvedRange, kind: ActivityKind) => {
  const vats = await activeVats(deps, farmId);
  const lists = await Promise.all(vats.map(async (d) => (await deps.readings.listActivities(d._id, range.from, range.to, [kind])).map((a) => ({ a, d }))));
  return lists.flat().sort((x, y) => y.a.start.published_at.localeCompare(x.a.start.published_at));
};

/** /api/farmer/activity (farmer §7): the farm's and its activities' data; access is the contracts' (farm or activity member). */
export const farmerActivityHandlers: readonly ServedAction[] = [
  serve(contracts.FARMER_DASHBOARD_LAST, ['farms', 'readings', 'now', 'alerts', 'pickupList'], async (_input, { farm, deps }) => {
    const vats = await activeVats(deps, farm._id);
    const now = deps.now().getTime();
    // The Auto tile's controller status and when it last changed: the last 2 days (the dashboard's
    // default range) are read only for Vat-Man Auto farms, whose vats report it.
    const auto = farm.package === 'Vat-Man Auto';
    // The reads that do not depend on each other go together (this answer is on the
    // dashboard's critical path): the Auto history, the pickups and each vat's own reads.
    const [recent, submitted, perVat] = await Promise.all([
      auto ? deps.readings.readRangeColumns(vats.map((d) => d._id), iso(now - DEFAULT_RANGE_DAYS * DAY), iso(now)) : [],
      deps.pickupList.listPickupsSince(farm._id, iso(now - CAPACITY.PICKUPS_KEPT * 2 * DAY)),
      Promise.all(
        vats.map(async (d) => {
          const [latest, [storage, collection, milking, cip], engine] = await Promise.all([
            deps.readings.latestReading(d._id, deps.now().toISOString()),
            Promise.all((['storage', 'collection', 'milking', 'cip'] as const).map((k) => deps.readings.latestActivity(d._id, k))),
            deps.alerts.getEngine(d._id),
          ]);
          return { latest, storage, collection, milking, cip, engine, cooling: await coolingNow(deps, d, milking, collection, now) };
        }),
      ),
    ]);
    return vats.map((d, i) => {
      const { latest, storage, collection, milking, cip, engine, cooling } = perVat[i]!;
      const last = latest ? detailPoint(latest) : (d.last_updated ?? null);
      const state = engine?.state;
      const wire = (a: StoredActivity | undefined) => (a ? toWire(a) : null);
      return {
        device: toVat(d),
        // The newest reading (with quality for the gauge); the device's live values if none is recent.
        last,
        lastStorage: wire(storage),
        lastCollection: wire(collection),
        lastMilking: wire(milking),
        lastCIP: wire(cip),
        ...(auto ? { controller: controllerNow(recent[i] ?? EMPTY_COLUMNS) ?? null } : {}),
        cooling,
        capacity: state?.capacity
          ? forecastCapacity({
              now: iso(now),
              volume: last?.milk_volume ?? null,
              vatSize: d.vat_size,
              history: state.capacity,
              submittedPickups: submitted.filter((p) => p.vat === d.vat_number).map((p) => p.datetime),
              milkingSince: state.milking && state.milking.end === null ? state.milking.start : null,
              timeZone: farm.timezone,
            })
          : null,
      };
    });
  }),

  serve(contracts.FARMER_DASHBOARD_LAST_ALL, ['farms', 'readings', 'now'], async (input, { farm, deps }) => {
    const range = rangeOf(input, farm, deps.now());
    const vats = await activeVats(deps, farm._id);
    // The 120 s refresh reads only from the client's newest reading on; a cursor before
    // the range asks for the whole range. The reading at `since` is read again so that a state run,
    // a stop or a gap going on across it continues in the answer.
    const since = input.since !== undefined && input.since > range.from ? (input.since < range.to ? input.since : range.to) : undefined;
    const sinceMs = since === undefined ? undefined : Date.parse(since);
    const ranges = await deps.readings.readRangeColumns(
      vats.map((d) => d._id),
      since ?? range.from,
      range.to,
    );
    // The chart's resolution (`points` pixels: two readings a pixel, else 1,500), within the vat's share of the answer.
    const limit = Math.floor(RANGE_ANSWER_POINTS / Math.max(1, vats.length));
    const options = (d: Device) => ({ points: input.points, series: CHART_SERIES, thresholds: vatThresholds(d.vat_size), limit, after: sinceMs });
    const head = (d: Device) => ({ device: toVat(d), package: farm.package, range, ...(since === undefined ? {} : { since }) });
    // The web client asks for the columnar form (decision 111); the spec's rows stay the default.
    if (input.form === 'columns') return vats.map((d, i) => ({ ...head(d), ...vatSeriesColumns(ranges[i] ?? EMPTY_COLUMNS, options(d)) }));
    return vats.map((d, i) => ({ ...head(d), ...vatSeries(ranges[i] ?? EMPTY_COLUMNS, options(d)) }));
  }),

  serve(contracts.FARMER_STORAGE_HISTORY, ['farms', 'readings', 'now'], async ({ farm: farmId }, { deps }) => {
    const to = deps.now().getTime();
    const from = iso(to - HISTORY_DAYS * DAY);
    const vats = await activeVats(deps, farmId);
    const [columns, storages] = await Promise.all([
      deps.readings.readRangeColumns(
        vats.map((d) => d._id),
        from,
        iso(to),
      ),
      Promise.all(vats.map((d) => deps.readings.listActivities(d._id, from, iso(to), ['storage']))),
    ]);
    return vats.map((d, i) => {
      const { detailData, coolerData, phyStateData } = vatSeries(columns[i] ?? EMPTY_COLUMNS, {
        maxPoints: HISTORY_POINTS,
        series: CHART_SERIES,
        thresholds: vatThresholds(d.vat_size),
        point: historyPoint,
      });
      return {
        device: toVat(d),
        from,
        to: iso(to),
        storages: (storages[i] ?? []).map(toWire).sort(byStartDesc),
        detailData,
        coolerData,
        phyStateData,
      };
    });
  }),

  serve(contracts.FARMER_MILKING_LIST, ['farms', 'readings', 'now'], async (input, { farm, deps }) => {
    // The milking tab compares a month of milkings; any package may pick the range here.
    const range = rangeOf(input, farm, deps.now(), MAX_RANGE_DAYS, true);
    const found = await farmActivities(deps, farm._id, range, 'milking');
    return { range, list: found.map(({ a, d }) => milkingItem(a, d)) };
  }),

  serve(contracts.FARMER_MILKING_ONE, ['readings', 'now'], async (_input, { device, activity, deps }) => {
    const now = deps.now().getTime();
    const start = Date.parse(activity.start.published_at);
    const [after, herd] = await Promise.all([
      deps.readings.listActivities(device._id, iso(start + 1), iso(start + HOLD_LOOKAHEAD_DAYS * DAY), ['milking', 'collection']),
      deps.readings.getHerdNote(device._id, activity.start.published_at),
    ]);
    const window = milkingWindow(activity, after, now);
    const { chartEnd } = window;
    const readings = await deps.readings.readRange(device._id, window.from, window.to);
    const compliance = judgeMilking(activity, window, readings, now);
    const chart = readings.filter((r) => Date.parse(r.published_at) <= chartEnd);
    return {
      ...milkingItem(activity, device),
      device: toVat(device),
      herd: (herd ?? null) as Herd | null,
      startCard: card(activity.start),
      stopCard: activity.end ? card(activity.end) : null,
      markers: { start: activity.start.published_at, end: activity.end?.published_at ?? null, h4: iso(start + 4 * HOUR), h6: iso(start + 6 * HOUR) },
      detailData: downsample(chart, CHART_POINT_CAP).map(detailPoint),
      compliance,
    };
  }),

  serve(contracts.FARMER_MILKING_LIST_BRIEF, ['readings'], async (_input, { device, activity, deps }) => {
    const t = Date.parse(activity.start.published_at);
    const list = await deps.readings.listActivities(device._id, iso(t - BRIEF_DAYS * DAY), iso(t + BRIEF_DAYS * DAY), ['milking']);
    return {
      device: toVat(device),
      list: list
        .sort((a, b) => a.start.published_at.localeCompare(b.start.published_at))
        .map((a) => ({
          _id: activityId(a.device_id, a),
          start: a.start.published_at,
          end: a.end?.published_at ?? null,
          volume: a.end?.milk_volume ?? null,
          productivity_l: milkingSummary(a).productivity_l,
          duration_min: minutesBetween(a.start.published_at, a.end?.published_at),
        })),
    };
  }),

  serve(contracts.FARMER_MILKING_ONE_HEAD, ['herdNotes'], async ({ activity_id, herd }, { device, activity, deps }) => {
    await deps.herdNotes.putHerdNote(device._id, activity.start.published_at, herd);
    return { _id: activity_id, herd };
  }),

  serve(contracts.FARMER_STORAGE_ONE, ['readings', 'alerts', 'now'], async ({ alert_id }, { device, activity, deps }) => {
    const now = deps.now().getTime();
    const start = Date.parse(activity.start.published_at);
    // A storage is a day or three; an uncollected vat is shown for at most the dashboard's maximum range.
    const to = Math.min(activity.end ? Date.parse(activity.end.published_at) : now, start + MAX_RANGE_DAYS * DAY);
    const [readings, alert] = await Promise.all([
      deps.readings.readRange(device._id, activity.start.published_at, iso(to)),
      // Only an alert of the storage's own farm: another farm's id answers no alert, as a missing one does.
      alert_id ? deps.alerts.get(device.farm_id, alert_id) : Promise.resolve(undefined),
    ]);
    const { detailData, coolerData, phyStateData, agitatorData } = vatSeries(columnsFromReadings(readings), {
      maxPoints: CHART_POINT_CAP,
      series: CHART_SERIES,
      thresholds: vatThresholds(device.vat_size),
      point: detailPoint,
    });
    return {
      activity: toWire(activity),
      farm_id: device.farm_id,
      device: toVat(device),
      detailData,
      coolerData,
      phyStateData,
      agitatorData,
      alert: alert ? { _id: alert._id, type: alert.type, status: alert.status, data: { ...alert.data }, created_at: alert.created_at, device: alert.device } : null,
    };
  }),

  serve(contracts.FARMER_COLLECTION_LIST, ['farms', 'readings', 'dairy', 'pickupList', 'watchman', 'now'], async (input, { farm, deps }) => {
    const range = rangeOf(input, farm, deps.now(), MAX_RANGE_DAYS, true);
    // Dockets against the vat: the company's dockets on its farms, the entered pickups elsewhere (as calibration).
    const company = isDairyCompanyFarm(farm.fonterra_id);
    const [found, pickups, matchingMinutes] = await Promise.all([
      farmActivities(deps, farm._id, range, 'collection'),
      company ? Promise.resolve([]) : deps.pickupList.listPickups(farm._id),
      savedMatchingMinutes(deps.watchman),
    ]);
    const vatNumbers = [...new Set(found.map(({ d }) => d.vat_number))];
    const dockets = new Map(await Promise.all(vatNumbers.map(async (n) => [n, company ? await deps.dairy.listDockets(farm._id, n) : []] as const)));
    return {
      range,
      list: found.map(({ a, d }) => {
        const collected = a.end?.milk_volume !== null && a.end?.milk_volume !== undefined && a.start.milk_volume !== null ? a.start.milk_volume - a.end.milk_volume : null;
        const tanker = a.end
          ? tankerFigureFor(
              { start: a.start.published_at, end: a.end.published_at },
              dockets.get(d.vat_number) ?? [],
              pickups.filter((p) => p.vat === d.vat_number),
              matchingMinutes,
            )
          : null;
        const diff = tanker && collected !== null ? tankerDifference(collected, tanker.volume) : null;
        return {
          ...toWire(a),
          vat_number: d.vat_number,
          volume_collected: collected,
          duration_min: minutesBetween(a.start.published_at, a.end?.published_at),
          tanker: tanker && { volume: tanker.volume, source: tanker.source, at: tanker.at },
          difference_l: diff?.litres ?? null,
          difference_percent: diff?.percent ?? null,
        };
      }),
    };
  }),

  serve(contracts.FARMER_AGITATOR_LIST, ['farms', 'readings', 'now'], async (input, { farm, deps }) => {
    const range = rangeOf(input, farm, deps.now(), MAX_RANGE_DAYS, true);
    const found = await farmActivities(deps, farm._id, range, 'agitator_stop');
    return {
      range,
      list: found.map(({ a, d }) => ({ ...toWire(a), vat_number: d.vat_number, duration_min: minutesBetween(a.start.published_at, a.end?.published_at) })),
    };
  }),
  addPickupAction,
  deletePickupAction,
  // The cooling compliance record.
  ...farmerComplianceHandlers,

  // The pickups entered on /dts/pickup, of the 30 days of page_index in the farm's days, newest first.
  serve(contracts.FARMER_PICKUP_LIST, ['farms', 'pickups', 'now'], async (input, { farm, caller, deps }) => {
    const range = rangeOf(input, farm, deps.now(), MAX_RANGE_DAYS, true);
    const from = Date.parse(range.from);
    const to = Date.parse(range.to);
    const list = (await deps.pickups.listPickups(farm._id))
      .filter((p) => Date.parse(p.datetime) >= from && Date.parse(p.datetime) <= to)
      .sort((a, b) => b.datetime.localeCompare(a.datetime) || a.vat - b.vat)
      .map((p) => ({ vat: p.vat, device_id: p.device_id, datetime: p.datetime, volume: p.volume, temperature: p.temperature, submitted_at: p.submitted_at, mine: p.submitted_by === caller.userId }));
    return { range, list };
  }),
];
