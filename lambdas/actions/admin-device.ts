import { adminDeviceContracts as contracts, rawId, parseRawId, roundedWindow, SERIES_MAX_DAYS, type SeriesAnswer } from '../../shared/api/actions/admin-device';
import { NO_MORE_DATA } from '../../shared/api/range';
import { AUDIT_PAGE } from '../../shared/entities/audit';
import type { Reading } from '../../shared/telemetry/reading';
import type { Device } from '../../shared/entities/device';
import type { Farm } from '../../shared/entities/farm';
import { detailPoint } from '../../shared/telemetry/chart-series';
import { vatThresholds } from '../../shared/telemetry/display-buckets';
import { columnsFromReadings } from '../../shared/telemetry/reading-columns';
import { vatSeries } from '../../shared/telemetry/vat-series';
import { addDays, localDayOf, localMidnight } from '../../shared/time/local-day';
import { serve, type ServedAction } from '../lib/dispatch';
import { ForbiddenError, ValidationError } from '../lib/errors';
import type { Ports } from '../ports/action-ports';
import { commitChange, MSG_CHANGED_MEANWHILE } from './support/audit';

/** How a status reads in the device audit (operator §2: the Active/Inactive toggle). */
const statusText = (status: 1 | 2) => (status === 1 ? 'Active' : 'Inactive');
import { operatorFleetHandlers } from './support/fleet-overview';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A device with no farm (or a farm since removed) is shown in New Zealand time, like the fleet. */
const FLEET_TIME_ZONE = 'Pacific/Auckland';
/** A window may end this far ahead of the server's clock (device clocks run a little fast). */
const FUTURE_SLACK_MS = 60_000;

/** The series shown on the device page: level, the temperatures and vibration keep their peaks. */
const SERIES = ['milk_level', 'temp1', 'temp2', 'temp3', 'shaft_rpm'] as const;

/** Any device of the fleet for the operator rule's callers; an unknown id is a 403 like elsewhere. */
const deviceOf = async (farms: Ports['farms'], deviceId: string): Promise<{ device: Device; farm: Farm | undefined }> => {
  const device = await farms.getDevice(deviceId);
  if (!device) throw new ForbiddenError();
  return { device, farm: device.farm_id ? await farms.getFarm(device.farm_id) : undefined };
};

const gaugeDevice = (device: Device, farm: Farm | undefined) => ({
  ...device,
  fonterra_id: farm?.fonterra_id ?? null,
  package: farm?.package ?? null,
  timezone: farm?.timezone ?? FLEET_TIME_ZONE,
});

/**
 * The readings of [from, to] for the device page at the chart's resolution (`points` pixels: at
 * most two readings a pixel; else 1,500), peaks of every series, threshold crossings, state
 * changes and the message-type markers (operator §2's vertical lines) kept.
 */
const series = async (readings: Ports['readings'], device: Device, from: number, to: number, points: number | undefined): Promise<SeriesAnswer> => {
  const list = await readings.readRange(device._id, new Date(from).toISOString(), new Date(to).toISOString());
  const marked = (i: number) => {
    const type = list[i]?.message_type;
    return type !== null && type !== undefined && type !== 'DATA';
  };
  // operator §2: rows in state 'startup' are skipped for level (the radar settles after a restart).
  const point = (r: Reading) => {
    const p = detailPoint(r);
    if (r.state_machine === 'startup') delete p.milk_level;
    return p;
  };
  const v = vatSeries(columnsFromReadings(list), { points, series: SERIES, thresholds: vatThresholds(device.vat_size), marked, point });
  return {
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    points: v.points,
    vat: v.detailData,
    cooler: v.coolerData,
    agitatorData: v.agitatorData,
  };
};

/** A paged window (operator §4): the span rounded up to 10 minutes; a window past the present has no more data. */
const pagedSeries = async (
  deps: Pick<Ports, 'farms' | 'readings' | 'now'>,
  { device_id, start, end, points }: { device_id: string; start: string; end: string; points?: number | undefined },
): Promise<SeriesAnswer> => {
  const { device } = await deviceOf(deps.farms, device_id);
  const startMs = Date.parse(start);
  const endMs = Date.parse(end);
  if (startMs >= endMs) throw new ValidationError('start must be before end.');
  if (endMs > deps.now().getTime() + FUTURE_SLACK_MS) throw new ValidationError(NO_MORE_DATA);
  const { from, to } = roundedWindow(startMs, endMs);
  if (to - from > SERIES_MAX_DAYS * DAY) throw new ValidationError(`The window may be at most ${SERIES_MAX_DAYS} days.`);
  return series(deps.readings, device, from, to, points);
};

/**
 * The farms by id, kept for a minute per container: the device list needs only each farm's supply
 * number, name and zone, which change rarely, and reading 500 farms again on every refresh of the
 * list would cost more than the list itself.
 */
const FARM_DIRECTORY_MS = 60_000;
let farmDirectory: { at: number; farms: Promise<Map<string, Farm>> } | undefined;
const farmsById = (farms: Ports['farms'], now: number): Promise<Map<string, Farm>> => {
  if (!farmDirectory || now - farmDirectory.at > FARM_DIRECTORY_MS) {
    const loading = farms.listFarms().then((list) => new Map(list.map((f) => [f._id, f])));
    farmDirectory = { at: now, farms: loading };
    loading.catch(() => (farmDirectory = undefined));
  }
  return farmDirectory.farms;
};

/** Messages refused because their device is retired, per thing, today and yesterday (UTC days). */
const retiredTraffic = async (readings: Ports['readings'], now: Date): Promise<Map<string, number>> => {
  const today = now.toISOString().slice(0, 10);
  const rejected = (await Promise.all([addDays(today, -1), today].map((d) => readings.listRejected(d)))).flat();
  const counts = new Map<string, number>();
  for (const r of rejected) {
    const thing = /^device (.+) is retired$/.exec(r.reason)?.[1];
    if (thing) counts.set(thing, (counts.get(thing) ?? 0) + 1);
  }
  return counts;
};

/** /api/admin/device (operator §2, §7): the fleet, its raw messages, gauges and series. */
export const adminDeviceHandlers: readonly ServedAction[] = [
  serve(contracts.DEVICE_LIST, ['farms', 'readings', 'now'], async ({ isRetired }, { deps }) => {
    const [devices, farmOf, retired] = await Promise.all([
      deps.farms.listDevices(),
      farmsById(deps.farms, deps.now().getTime()),
      isRetired === 2 ? retiredTraffic(deps.readings, deps.now()) : new Map<string, number>(),
    ]);
    return devices
      .filter((d) => d.status === isRetired)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((d) => {
        const farm = farmOf.get(d.farm_id);
        return { ...d, fonterra_id: farm?.fonterra_id ?? null, farm_name: farm?.name ?? null, timezone: farm?.timezone ?? FLEET_TIME_ZONE, retired_messages: retired.get(d.name) ?? 0 };
      });
  }),

  /** The row's Active/Inactive toggle (operator §4): a retired device's messages are refused by the ingest and counted. */
  serve(contracts.DEVICE_EDIT, ['farms', 'auditedChanges', 'now'], async ({ device_id, status }, { deps, caller }) => {
    const device = await deps.farms.getDevice(device_id);
    if (!device) throw new ForbiddenError();
    if (device.status === status) return device;
    // Retiring stops the device's ingest: the status and its entry land together.
    await commitChange(deps, caller, 'device', { action: 'DEVICE_EDIT', target: device.name, before: statusText(device.status), after: statusText(status) }, [
      { kind: 'deviceStatus', deviceId: device._id, status, before: device.status },
    ]);
    return { ...device, status };
  }),

  /** 'Load name from Particle': each device takes the name its thing has in the registry, each rename with its own entry. */
  serve(contracts.DEVICE_LOAD_NAME, ['farms', 'thingRegistry', 'auditedChanges', 'now'], async (_input, { deps, log, caller }) => {
    const [things, devices] = await Promise.all([deps.thingRegistry.listThings(), deps.farms.listDevices()]);
    const byId = new Map(devices.map((d) => [d._id, d]));
    const renamed: { _id: string; from: string; to: string }[] = [];
    for (const t of things) {
      const d = t.deviceId ? byId.get(t.deviceId) : undefined;
      if (!d || d.name === t.thingName) continue;
      try {
        await commitChange(deps, caller, 'device', { action: 'DEVICE_LOAD_NAME', target: d._id, before: d.name, after: t.thingName }, [{ kind: 'deviceName', device: d, name: t.thingName }]);
      } catch (err) {
        // Renamed by someone else since the list was read: the next load sees the new name.
        if (err instanceof ValidationError && err.message === MSG_CHANGED_MEANWHILE) continue;
        throw err;
      }
      renamed.push({ _id: d._id, from: d.name, to: t.thingName });
    }
    if (renamed.length) log.info('device names loaded from the registry', { renamed: renamed.length });
    return { checked: things.length, renamed };
  }),

  serve(contracts.DEVICE_AUDIT_LIST, ['audit'], async ({ cursor }, { deps }) => deps.audit.list('device', AUDIT_PAGE, cursor)),

  /** One day of raw messages, `days` days before today in the farm's local time (operator §2 raw dumps). */
  serve(contracts.DEVICE_ONE_RAWS, ['farms', 'readings', 'now'], async ({ device_id, days }, { deps }) => {
    const { device, farm } = await deviceOf(deps.farms, device_id);
    const zone = farm?.timezone ?? FLEET_TIME_ZONE;
    const day = addDays(localDayOf(deps.now().getTime(), zone), -days);
    const from = localMidnight(day, zone);
    const to = localMidnight(addDays(day, 1), zone) - 1;
    const raws = await deps.readings.listRawBetween(device_id, new Date(from).toISOString(), new Date(to).toISOString());
    return { device: gaugeDevice(device, farm), day, raws: raws.map((r) => ({ _id: rawId(device_id, r.published_at), ...r })) };
  }),

  /** The gauges: the newest reading of the last two days, else the device's last values (operator §2). */
  serve(contracts.DEVICE_ONE, ['farms', 'readings', 'now'], async ({ device_id }, { deps }) => {
    const { device, farm } = await deviceOf(deps.farms, device_id);
    const latest = await deps.readings.latestReading(device_id, deps.now().toISOString());
    return { device: gaugeDevice(device, farm), data: latest ? detailPoint(latest) : (device.last_updated ?? null) };
  }),

  /** A window counted back from now: from days1 d + hours1 h ago to days2 d + hours2 h ago. */
  serve(contracts.DEVICE_ONE_SERIES, ['farms', 'readings', 'now'], async ({ device_id, days1, hours1, days2, hours2, points }, { deps }) => {
    const { device } = await deviceOf(deps.farms, device_id);
    const now = deps.now().getTime();
    const from = now - days1 * DAY - hours1 * HOUR;
    const to = now - days2 * DAY - hours2 * HOUR;
    if (from >= to) throw new ValidationError('The window must start before it ends.');
    if (to - from > SERIES_MAX_DAYS * DAY) throw new ValidationError(`The window may be at most ${SERIES_MAX_DAYS} days.`);
    return series(deps.readings, device, from, to, points);
  }),

  /** Previous/Next (operator §4): the span rounded up to 10 minutes; a window past the present has no more data. */
  serve(contracts.DEVICE_ONE_SERIES_TIME_RANGE, ['farms', 'readings', 'now'], async (input, { deps }) => (await pagedSeries(deps, input)).vat),
  /** The same window's bounds, count, cooler readings and agitator stops. */
  serve(contracts.DEVICE_ONE_SERIES_WINDOW, ['farms', 'readings', 'now'], async (input, { deps }) => {
    const { vat: _readings, ...window } = await pagedSeries(deps, input);
    return window;
  }),

  /** One raw message by its id (a click on a chart point or marker line). */
  serve(contracts.DEVICE_ONE_RAW, ['farms', 'readings'], async ({ _id }, { deps }) => {
    const id = parseRawId(_id);
    if (!id) throw new ValidationError('_id is not valid');
    await deviceOf(deps.farms, id.deviceId);
    const raw = await deps.readings.getRaw(id.deviceId, new Date(Date.parse(id.publishedAt)).toISOString());
    if (raw === undefined) throw new ValidationError('This raw message is no longer kept (30 days).');
    return { _id, device_id: id.deviceId, published_at: id.publishedAt, raw };
  }),
  ...operatorFleetHandlers,
];
