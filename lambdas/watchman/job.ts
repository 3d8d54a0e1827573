import { randomUUID } from 'node:crypto';
import type { AlertsRepository } from '../ports/alerts';
import type { DairyRepository } from '../ports/dairy';
import type { FarmRepository } from '../ports/farms';
import type { ReadingsRepository } from '../ports/readings';
import type { WatchmanRepository } from '../ports/watchman';
import { isDairyCompanyFarm, type Farm } from '../../shared/entities/farm';
import type { Device } from '../../shared/entities/device';
import { emptyCounts, type RunCount, type WatchmanCase, type WatchmanRun } from '../../shared/watchman/records';
import {
  calibrationVerdict,
  checkAgitatorProbe,
  checkDataGaps,
  checkPlateCooling,
  checkSignal,
  checkTempAccuracy,
  checkTempProbeRange,
  classifyFarm,
  matchCollections,
  reconcileCases,
  syncDecision,
  type CalibrationVerdict,
  type CheckName,
  type Verdict,
} from '../../shared/watchman/rules';
import { withDefaults, type WatchmanSettings } from '../../shared/watchman/settings';
import type { Logger } from '../lib/logger';
import type { VatWindowReader } from './vat-window';

const DAY = 86_400_000;
/** A run holds its lease this long; one that dies leaves it to expire (the schedule is hourly). */
const LEASE_MS = 15 * 60_000;
/** Farms worked on at once: each farm's reads are batched and in parallel, so this bounds the open requests. */
export const FARM_CONCURRENCY = 64;
/** How often a run looks at on_status again (operator §4: "ends current ... sessions"): before its next farm, at most this stale. */
const ON_STATUS_RECHECK_MS = 1_000;

export interface WatchmanDeps {
  readonly farms: Pick<FarmRepository, 'listFarms' | 'listDevicesOfFarm' | 'setFarmFlag'>;
  readonly readings: Pick<ReadingsRepository, 'listActivities' | 'latestActivity'>;
  readonly vatWindow: VatWindowReader;
  readonly dairy: Pick<DairyRepository, 'listDockets'>;
  /** The farm's alerts of the window (the plate-cooling check reads the engine's 'Milk warm plate'). */
  readonly alerts: Pick<AlertsRepository, 'listSince'>;
  /** Its lease, runs and cases; the settings read only (SAVE_SETTINGS is the Watchman page's). */
  readonly watchman: Omit<WatchmanRepository, 'putSettings'>;
  readonly now: () => Date;
  readonly log: Logger;
  readonly concurrency?: number;
  /** @default ON_STATUS_RECHECK_MS */
  readonly onStatusRecheckMs?: number;
}

type WatchmanOutcome = { readonly ran: false; readonly reason: 'off' | 'busy' } | { readonly ran: true; readonly run: WatchmanRun; readonly cases: { opened: WatchmanCase[]; closed: WatchmanCase[] } };

/** A partner's API failed: counted on the run (error_fonterra_api, error_milog_api, error_particle_api), never fatal. */
class PartnerError extends Error {
  constructor(
    readonly partner: 'error_fonterra_api' | 'error_milog_api' | 'error_particle_api',
    override readonly cause: unknown,
  ) {
    super(partner);
  }
}
const via =
  (partner: PartnerError['partner']) =>
  async <T>(p: Promise<T>): Promise<T> => {
    try {
      return await p;
    } catch (err) {
      throw new PartnerError(partner, err);
    }
  };
/** The dairy company's records (dockets), the milking log (readings, activities), the device registry (farm's vats). */
const fonterra = via('error_fonterra_api');
const milog = via('error_milog_api');
const particle = via('error_particle_api');

/** Runs `work` over items, at most `n` at once. */
const pool = async <T>(items: readonly T[], n: number, work: (item: T) => Promise<void>) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await work(item);
      }
    }),
  );
};

/**
 * Watchman: for every farm with Watch on (auto_check), classify it, run the fault checks
 * and the calibration check on its vats, switch its dairy-company sync, open and close cases, and
 * record the run (operator §3's 18 fields). One run at a time (a lease with a conditional write);
 * safe to repeat: cases are opened by a conditional put on farm, vat and check, and a sync flag is
 * set to a value, not toggled.
 */
export const makeWatchman = (d: WatchmanDeps) => {
  const checkVat = async (farm: Farm, device: Device, s: WatchmanSettings, now: Date, farmAlerts: readonly { device: { _id: string }; type: number; data: { published_at: string } }[]) => {
    const to = now.toISOString();
    const from = new Date(now.getTime() - s.fault_check_days * DAY).toISOString();
    const window = await milog(d.vatWindow(device, from, to));
    const results: { vat: number; check: CheckName; verdict: Verdict | CalibrationVerdict }[] = [
      { vat: device.vat_number, check: 'signal', verdict: checkSignal(window.points, s) },
      { vat: device.vat_number, check: 'temp_probe_range', verdict: checkTempProbeRange(window.points, s) },
      { vat: device.vat_number, check: 'temp_accuracy', verdict: checkTempAccuracy(window.ends, s) },
      { vat: device.vat_number, check: 'agitator_probe', verdict: checkAgitatorProbe(window.points, s) },
      { vat: device.vat_number, check: 'data_gaps', verdict: checkDataGaps(window.points, { from, now }, s) },
      { vat: device.vat_number, check: 'plate_cooling', verdict: checkPlateCooling(farmAlerts.filter((a) => a.device._id === device._id).map((a) => ({ type: a.type, at: a.data.published_at })), { from, to }) },
    ];
    if (isDairyCompanyFarm(farm.fonterra_id)) {
      const calFrom = new Date(now.getTime() - s.calibration_days * DAY).toISOString();
      const [collections, dockets] = await Promise.all([
        milog(d.readings.listActivities(device._id, calFrom, to, ['collection'])),
        fonterra(d.dairy.listDockets(farm._id, device.vat_number)),
      ]);
      const done = collections.flatMap((c) =>
        c.end && c.start.milk_volume !== null && c.end.milk_volume !== null
          ? [{ start: c.start.published_at, end: c.end.published_at, collected: c.start.milk_volume - c.end.milk_volume }]
          : [],
      );
      const matches = matchCollections(done, dockets.filter((k) => k.PickupDateTime >= calFrom.slice(0, 19)).map((k) => ({ at: k.PickupDateTime, volume: k.Volume })), s);
      results.push({ vat: device.vat_number, check: 'calibration', verdict: calibrationVerdict(matches, s) });
    }
    return results;
  };

  return {
    async run(): Promise<WatchmanOutcome> {
      let settings = withDefaults(await d.watchman.getSettings());
      if (!settings.on_status) return { ran: false, reason: 'off' };
      const runId = randomUUID();
      const started = d.now();
      if (!(await d.watchman.acquireLease(runId, started, LEASE_MS))) return { ran: false, reason: 'busy' };
      const counts = emptyCounts();
      const add = (k: RunCount, n = 1) => {
        counts[k] += n;
      };
      const record = (outcome: WatchmanRun['outcome'], finished: string | null): WatchmanRun => ({ _id: runId, started_at: started.toISOString(), finished_at: finished, ...counts, outcome });
      const opened: WatchmanCase[] = [];
      const closed: WatchmanCase[] = [];
      try {
        await d.watchman.putRun(record('running', null));
        const [farms, open] = await Promise.all([d.farms.listFarms(), d.watchman.listOpenCases()]);
        const openByFarm = new Map<string, WatchmanCase[]>();
        for (const c of open) openByFarm.set(c.farm_id, [...(openByFarm.get(c.farm_id) ?? []), c]);
        let stopped = false;
        let checkedAt = Date.now();
        const stillOn = async () => {
          if (Date.now() - checkedAt < (d.onStatusRecheckMs ?? ON_STATUS_RECHECK_MS)) return settings.on_status;
          checkedAt = Date.now();
          settings = withDefaults(await d.watchman.getSettings());
          return settings.on_status;
        };

        await pool(
          farms.filter((f) => f.auto_check),
          d.concurrency ?? FARM_CONCURRENCY,
          async (farm) => {
            if (stopped || !(await stillOn())) {
              stopped = true;
              return;
            }
            const s = settings;
            const now = d.now();
            add('farms_total');
            try {
              const devices = (await particle(d.farms.listDevicesOfFarm(farm._id))).filter((v) => v.status === 1);
              const lastMilkings = await Promise.all(devices.map((v) => milog(d.readings.latestActivity(v._id, 'milking'))));
              const lastMilkingAt = lastMilkings.reduce<string | null>((a, m) => (m && (!a || m.start.published_at > a) ? m.start.published_at : a), null);
              const kind = classifyFarm({ install_date: farm.install_date, lastMilkingAt }, now, s);
              if (kind === 'recent_install') return;
              if (kind === 'dry') {
                add('farms_dry');
                return;
              }
              add('farms_milking');
              const farmAlerts = await milog(d.alerts.listSince(farm._id, new Date(now.getTime() - s.fault_check_days * DAY).toISOString()));
              const results = (await Promise.all(devices.map((v) => checkVat(farm, v, s, now, farmAlerts)))).flat();
              for (const r of results) {
                if (r.check !== 'calibration') continue;
                if (r.verdict.status === 'within') add('vats_within_spec');
                if (r.verdict.status === 'out') add('vats_out_of_spec');
              }
              const faulty = results.some((r) => r.verdict.status === 'fault' || r.verdict.status === 'out');
              add(faulty ? 'farms_faulty' : 'farms_okay');

              if (isDairyCompanyFarm(farm.fonterra_id)) {
                const decision = syncDecision(farm.fonterra_api_status, !faulty, s, farm.fonterra_sync_held === true);
                let syncOn = farm.fonterra_api_status;
                if (decision !== 'keep') {
                  syncOn = decision === 'turn_on';
                  await d.farms.setFarmFlag(farm._id, 'fonterra_api_status', syncOn);
                  add(syncOn ? 'syncs_turned_on' : 'syncs_turned_off');
                  d.log.info('watchman sync', { farm: farm._id, sync: syncOn });
                }
                add(syncOn ? 'syncs_on' : 'syncs_off');
              }

              const farmOpen = openByFarm.get(farm._id) ?? [];
              const { toOpen, toClose } = reconcileCases(farmOpen, results);
              const at = now.toISOString();
              for (const f of toOpen) {
                const device = devices.find((v) => v.vat_number === f.vat) as Device;
                const c: WatchmanCase = { farm_id: farm._id, fonterra_id: farm.fonterra_id, timezone: farm.timezone, vat: f.vat, device_id: device._id, check: f.check, evidence: f.evidence, opened_at: at, closed_at: null };
                if ((await d.watchman.openCase(c)) === 'created') {
                  add('cases_created');
                  opened.push(c);
                }
              }
              for (const c of toClose) {
                await d.watchman.closeCase(c, at);
                add('cases_closed');
                closed.push({ ...c, closed_at: at });
              }
            } catch (err) {
              if (!(err instanceof PartnerError)) throw err;
              add(err.partner);
              d.log.warn('watchman farm skipped: a partner API failed', { farm: farm._id, partner: err.partner, err: err.cause });
            }
          },
        );
        const run = record(stopped ? 'stopped' : 'done', d.now().toISOString());
        await d.watchman.putRun(run);
        return { ran: true, run, cases: { opened, closed } };
      } catch (err) {
        await d.watchman.putRun(record('stopped', d.now().toISOString())).catch(() => undefined);
        throw err;
      } finally {
        await d.watchman.releaseLease(runId);
      }
    },
  };
};
