import { evaluate, sweep } from '../../shared/alerts/engine';
import { initialAlertState, type AlertContext, type AlertEngineState, type EngineStep } from '../../shared/alerts/engine-state';
import type { Notification, NotificationType } from '../../shared/alerts/types';
import type { Device } from '../../shared/entities/device';
import { isDairyCompanyFarm, type Farm } from '../../shared/entities/farm';
import type { Reading } from '../../shared/telemetry/reading';
import type { AlertSettingsRepository } from '../ports/alert-settings';
import type { AlertsRepository, EngineRecord, OutboxAlert, StoredNotification } from '../ports/alerts';
import type { FarmRepository } from '../ports/farms';
import type { MilkingWindowsRepository } from '../ports/milking-windows';
import type { PickupRepository } from '../ports/pickups';
import { CAPACITY } from '../../shared/alerts/capacity-forecast';
import { assertIsError } from '../lib/errors';
import type { Logger } from '../lib/logger';
import { makeLockedCommit, type Step } from '../lib/locked-commit';
import type { Notifier } from './notifier';

interface AlertProcessorDeps {
  readonly farms: Pick<FarmRepository, 'getFarm' | 'getDevice'>;
  readonly settings: Pick<AlertSettingsRepository, 'getFarmSettings'>;
  /** The farms' imported milking windows: late milking (1201) follows a farm's window when it has one. */
  readonly milkingWindows?: Pick<MilkingWindowsRepository, 'list'>;
  /** Pickups the farmer submitted (/dts/pickup): the capacity forecast (202) counts them beside detected collections. */
  readonly pickups?: Pick<PickupRepository, 'listPickupsSince'>;
  readonly alerts: AlertsRepository;
  readonly notifier: Notifier;
  readonly now: () => Date;
  readonly log: Logger;
}

/** Types raised as one-off events: they never hold an open-condition item. */
const ONE_SHOT: ReadonlySet<NotificationType> = new Set<NotificationType>([501, 111, 601, 1201]);
/** A warm container writes a record whose only change is the newest reading at most this often. */
const VOLATILE_PERSIST_MS = 2 * 60_000;
/** The state without what every reading changes (cursor, the last reading, its arrival). */
const sameMaterial = (a: AlertEngineState, b: AlertEngineState) => {
  const strip = ({ cursor: _c, seenAt: _s, last: _l, ...rest }: AlertEngineState) => rest;
  return JSON.stringify(strip(a)) === JSON.stringify(strip(b));
};
/**
 * The engine state with the device's newest reading and its arrival as the ingest committed them
 * (the device item is written with every reading; the engine's own copy may lag, see
 * VOLATILE_PERSIST_MS). Its values are the display-rounded ones, fine for what a sweep reports.
 */
const withDeviceLive = (state: AlertEngineState, device: Device): AlertEngineState => {
  const lu = device.last_updated;
  const fresher = lu && (state.cursor === null || lu.published_at > state.cursor);
  const seenAt = device.seen_at && (state.seenAt === null || device.seen_at > state.seenAt) ? device.seen_at : state.seenAt;
  return {
    ...state,
    seenAt,
    ...(fresher
      ? {
          cursor: lu.published_at,
          last: { published_at: lu.published_at, temp1: lu.temp1 ?? null, milk_volume: lu.milk_volume ?? null, agitator_status: (lu.agitator_status ?? null) as 0 | 1 | null },
        }
      : {}),
  };
};
/** Thresholds and packages change rarely: a warm container re-reads them at least this often. */
const CONTEXT_CACHE_MS = 60_000;

/** The deterministic id of an alert: the trigger reading's time, the device and the type. */
export const alertId = (deviceId: string, type: number, publishedAt: string): string => `${publishedAt}~${deviceId}~${type}`;

/** A step's effects as outbox entries: clears first (the engine never raises a type in the step that clears it). */
const outboxOf = (result: EngineStep): OutboxAlert[] => [...result.cleared.map((clear) => ({ clear })), ...result.raised.map((alert) => ({ alert, open: !ONE_SHOT.has(alert.type) }))];
const withOutbox = (result: EngineStep) => ({ state: result.state, outbox: outboxOf(result) });

/**
 * Runs the alert engine for the ingest (a device's new readings, in order) and for the sweep (time-based
 * types), persists its state under an optimistic lock, writes raised alerts through a crash-safe
 * outbox on the state item, clears open conditions, and hands new alerts to the notifier.
 */
export const makeAlertProcessor = (deps: AlertProcessorDeps) => {
  const { alerts, log } = deps;
  const contexts = new Map<string, { at: number; farm: Farm; ctx: AlertContext }>();
  /** The device and farm a run is about (the outbox needs them to write and deliver its alerts). */
  const subjects = new Map<string, { device: Device; farm: Farm }>();
  /** When this container last wrote each device's record (its clock). */
  const persistedAt = new Map<string, number>();

  const contextOf = async (device: Device): Promise<{ farm: Farm; ctx: AlertContext } | undefined> => {
    const key = device._id;
    const hit = contexts.get(key);
    if (hit && deps.now().getTime() - hit.at < CONTEXT_CACHE_MS) return hit;
    const pickupsSince = new Date(deps.now().getTime() - CAPACITY.PICKUPS_KEPT * 2 * 86_400_000).toISOString();
    const [farm, settings, windows, pickups] = await Promise.all([
      deps.farms.getFarm(device.farm_id),
      deps.settings.getFarmSettings(device.farm_id),
      deps.milkingWindows?.list([device.farm_id]) ?? Promise.resolve([]),
      deps.pickups?.listPickupsSince(device.farm_id, pickupsSince) ?? Promise.resolve([]),
    ]);
    if (!farm) return undefined;
    const window = windows[0];
    const ctx: AlertContext = {
      vat: { vat_size: device.vat_size },
      settings,
      pro: farm.package === 'Vat-Man Pro' || farm.package === 'Vat-Man Auto',
      dairyCompany: isDairyCompanyFarm(farm.fonterra_id),
      auto: farm.package === 'Vat-Man Auto',
      timezone: farm.timezone,
      ...(window ? { milkingWindow: { end_of_milking: window.end_of_milking, buffer_duration: window.buffer_duration, timezone: farm.timezone } } : {}),
      submittedPickups: pickups.filter((p) => p.vat === device.vat_number).map((p) => p.datetime),
    };
    const entry = { at: deps.now().getTime(), farm, ctx };
    contexts.set(key, entry);
    return entry;
  };

  const toNotification = (device: Device, o: Extract<OutboxAlert, { alert: unknown }>): Notification => ({
    _id: alertId(device._id, o.alert.type, o.alert.data.published_at),
    farm_id: device.farm_id,
    type: o.alert.type,
    status: 1,
    data: o.alert.data,
    ...(o.alert.quality ? { quality: o.alert.quality } : {}),
    ...(o.alert.detail ? { detail: o.alert.detail } : {}),
    ...(o.alert.lateMilking ? { lateMilking: o.alert.lateMilking } : {}),
    device: { _id: device._id, name: device.name, vat_number: device.vat_number },
    created_at: deps.now().toISOString(),
  });

  const subjectOf = (deviceId: string) => {
    const s = subjects.get(deviceId);
    if (!s) throw new Error(`alert engine of ${deviceId}: no device for its outbox`);
    return s;
  };

  /**
   * The engine records under the shared commit shell (lambdas/lib/locked-commit.ts). A warm
   * container remembers each device's record as it last committed it, saving a read per reading.
   * The outbox (raised alerts, cleared conditions) is applied in order after the commit
   * (idempotent: deterministic ids, conditional puts), then emptied by a second conditional write;
   * the alerts it created are handed to the notifier.
   */
  const engines = makeLockedCommit<EngineRecord, StoredNotification[]>({
    name: 'alert engine',
    load: (id) => alerts.getEngine(id),
    commit: (id, next, previous) => alerts.putEngine(id, next, previous?.n),
    version: (r) => r.n,
    hasOutbox: (r) => r.outbox.length > 0,
    cleared: (r) => ({ ...r, n: r.n + 1, outbox: [] }),
    now: () => deps.now().getTime(),
    flush: async (id, record) => {
      const { device } = subjectOf(id);
      const fresh: StoredNotification[] = [];
      for (const op of record.outbox) {
        if ('clear' in op) {
          await alerts.clearOpen(device.farm_id, device._id, op.clear);
          continue;
        }
        const n = toNotification(device, op);
        const result = await alerts.raise(n, op.open);
        if (result === 'created') fresh.push({ ...n, delivery_state: 'pending', delivered: [] });
        else if (result === 'blocked') log.warn('alert already open under another id, not raised again', { device: device._id, type: op.alert.type });
      }
      return fresh;
    },
    afterFlush: async (id, fresh) => {
      const { device, farm } = subjectOf(id);
      for (const n of fresh) {
        log.info('alert raised', { farm: device.farm_id, device: device._id, type: n.type, at: n.data.published_at });
        try {
          await deps.notifier.deliver(n, farm);
        } catch (err) {
          assertIsError(err);
          // The notification stays pending: the sweep delivers it.
          log.error('alert delivery failed; the sweep will retry', { alert: n._id, err });
        }
      }
    },
  });

  /**
   * One engine step under the lock (load, apply a leftover outbox, step, commit, apply, deliver).
   * The step's outbox is in the order its effects happened (see outboxOf).
   */
  const run = async (device: Device, step: (record: EngineRecord, ctx: AlertContext) => { state: AlertEngineState; outbox: OutboxAlert[] }, caller: 'ingest' | 'sweep' = 'ingest') => {
    const c = await contextOf(device);
    if (!c) return;
    subjects.set(device._id, { device, farm: c.farm });
    await engines.run(device._id, (stored, { cached }): Step<EngineRecord, void> => {
      const record: EngineRecord = stored ?? { n: 0, farm_id: device.farm_id, state: initialAlertState(), outbox: [] };
      const result = step(record, c.ctx);
      const quiet = result.outbox.length === 0;
      if (quiet && JSON.stringify(result.state) === JSON.stringify(record.state)) return { kind: 'none', result: undefined };
      // Every reading moves the cursor, the last reading and its arrival time. Writing only those
      // can wait a little in a warm container (the ingest keeps the arrival time on the device
      // item too, for the sweep's OFFLINE); any other change is written at once.
      const nowMs = deps.now().getTime();
      if (quiet && sameMaterial(result.state, record.state)) {
        // The sweep only took the volatile fields from the device item: nothing of its own to write.
        if (caller === 'sweep') return { kind: 'none', result: undefined };
        if (cached && stored && nowMs - (persistedAt.get(device._id) ?? 0) < VOLATILE_PERSIST_MS) return { kind: 'keep', record: { ...record, state: result.state }, result: undefined };
      }
      persistedAt.set(device._id, nowMs);
      return { kind: 'commit', record: { n: record.n + 1, farm_id: device.farm_id, state: result.state, outbox: result.outbox }, result: undefined };
    });
  };

  /**
   * The ingest's hook: a device's new in-order readings (oldest first), after the ingest committed
   * them, in one engine step: each reading is evaluated on the state the one before it left (as
   * one step per reading would), and the whole run is one commit whose outbox holds every
   * reading's clears and raises in reading order (one engine write per device batch
   * instead of one per reading whose state changed). Readings the engine has seen are skipped.
   */
  const onReadings = async ({ device, readings }: { device: Device; readings: readonly Reading[] }) => {
    if (readings.length === 0) return;
    await run(device, (record, ctx) => {
      let state = record.state;
      const outbox: OutboxAlert[] = [];
      for (const reading of readings) {
        const result = evaluate(state, reading, ctx, { now: deps.now });
        state = result.state;
        outbox.push(...outboxOf(result));
      }
      return { state, outbox };
    });
  };
  /** One reading (onReadings with one). */
  const onReading = ({ device, reading }: { device: Device; reading: Reading }) => onReadings({ device, readings: [reading] });

  /** The periodic sweep: time-based types for every device, then deliveries still pending. */
  const sweepAll = async () => {
    const now = deps.now();
    const devices = await alerts.listEngineDevices();
    let failed = 0;
    for (const { device_id } of devices) {
      try {
        const device = await deps.farms.getDevice(device_id);
        if (!device || device.status !== 1) continue;
        // The ingest records each reading's arrival on the device item at once; the engine's own
        // copy may be a little behind (see VOLATILE_PERSIST_MS): the later of the two counts.
        await run(device, (record, ctx) => withOutbox(sweep(withDeviceLive(record.state, device), now, ctx)), 'sweep');
      } catch (err) {
        assertIsError(err);
        failed += 1;
        log.error('sweep of a device failed', { device: device_id, err });
      }
    }
    const delivered = await deps.notifier.retryPending();
    return { devices: devices.length, failed, delivered };
  };

  return { onReading, onReadings, sweepAll };
};
export type AlertProcessor = ReturnType<typeof makeAlertProcessor>;
