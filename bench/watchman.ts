/**
 * Watchman at scale: one run over 10,000 simulated farms (40,000 vats) in one process,
 * as one Lambda invocation would do it. Target: at most 60 s.
 *
 * What is real: the job (lambdas/watchman/job.ts) with its rules, its pool of farms worked on at
 * once, its case and sync writes and its run record. What is simulated: the stores. Every read
 * and write answers from memory after a fixed delay like a DynamoDB call's (5 ms for a
 * GetItem/Query, 10 ms for a vat's window), so the figure is the job's own time at that
 * parallelism, not dynalite's (a local dynalite serves a few hundred requests a second; the
 * 10,000-farm table would take longer to write than the run takes). Each vat's window is its
 * 72 hourly data points and its milking ends, as the job reads them.
 */
import { performance } from 'node:perf_hooks';
import type { WatchmanRepository } from '../lambdas/ports/watchman';
import { createLogger } from '../lambdas/lib/logger';
import { makeWatchman } from '../lambdas/watchman/job';
import type { VatWindow } from '../lambdas/watchman/vat-window';
import { demoFarm } from '../local/seed/demo-data';
import type { Device } from '../shared/entities/device';
import type { Farm } from '../shared/entities/farm';
import type { WatchmanCase, WatchmanRun } from '../shared/watchman/records';
import type { HourPoint } from '../shared/watchman/rules';

const FARMS = 10_000;
const VATS = 4;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const DB_MS = 5;
const WINDOW_MS = 10;

const later = <T>(ms: number, value: () => T): Promise<T> => new Promise((r) => setTimeout(() => r(value()), ms));

export const benchWatchman = async (): Promise<void> => {
  const now = new Date();
  const farms: Farm[] = Array.from({ length: FARMS }, (_, i) =>
    demoFarm({ _id: `wm-farm-${i}`, fonterra_id: i % 2 ? String(70000 + i) : `SIM${i}`, name: `Farm ${i}`, package: 'Vat-Man Pro', install_numVats: VATS, supplier: i % 2 ? 'FON' : 'OTH' }),
  ).map((f, i) => ({ ...f, fonterra_api_status: i % 2 === 1 }));
  const devicesOf = (farmId: string): Device[] =>
    Array.from({ length: VATS }, (_, v) => ({
      _id: `${farmId}-vat-${v + 1}`,
      name: `${farmId}-vat-${v + 1}`,
      farm_id: farmId,
      vat_number: v + 1,
      status: 1,
      vat_size: 14000,
      vat_max_height: 2438,
      vat_diameter: 2875,
      wedgeHeight: 60,
      vat_volume_offset: 0,
      vat_auto: false,
    }));
  // About one vat in 50 has a weak signal; one in 200 a stopped agitator.
  const windowOf = (device: Device): VatWindow => {
    const n = Number(device.farm_id.slice(8)) * VATS + device.vat_number;
    const from = Math.floor(now.getTime() / HOUR) * HOUR - 72 * HOUR;
    const points: HourPoint[] = Array.from({ length: 72 }, (_, h) => ({
      hour: new Date(from + h * HOUR).toISOString(),
      n: 60,
      strength: n % 50 === 0 ? 10 : 70,
      quality: 80,
      probe_min: 3.5,
      probe_max: 19.5,
      stir_rpm: h % 12 < 2 ? (n % 200 === 1 ? 0 : 108) : null,
    }));
    return { points, ends: [0, 1, 2, 3, 4, 5].map((k) => ({ at: new Date(from + (k * 12 + 2) * HOUR).toISOString(), vat: 8, inlet: 19 })) };
  };
  const open = new Map<string, WatchmanCase>();
  const runs: WatchmanRun[] = [];
  const watchman: WatchmanRepository = {
    getSettings: () => later(DB_MS, () => undefined),
    putSettings: () => later(DB_MS, () => undefined),
    acquireLease: () => later(DB_MS, () => true),
    releaseLease: () => later(DB_MS, () => undefined),
    putRun: (r) => later(DB_MS, () => void runs.push(r)),
    listRuns: () => later(DB_MS, () => runs),
    countRuns: () => later(DB_MS, () => runs.length),
    listOpenCases: () => later(DB_MS * 4, () => [...open.values()]),
    openCase: (c) => later(DB_MS, () => (open.has(`${c.farm_id}#${c.vat}#${c.check}`) ? 'exists' : (open.set(`${c.farm_id}#${c.vat}#${c.check}`, c), 'created'))),
    closeCase: (c) => later(DB_MS, () => void open.delete(`${c.farm_id}#${c.vat}#${c.check}`)),
  };
  const job = makeWatchman({
    farms: {
      listFarms: () => later(DB_MS * 20, () => farms),
      listDevicesOfFarm: (id) => later(DB_MS, () => devicesOf(id)),
      setFarmFlag: () => later(DB_MS, () => undefined),
    },
    readings: {
      latestActivity: (id) =>
        later(DB_MS, () => ({ kind: 'milking' as const, device_id: id, farm_id: '', start: { published_at: new Date(now.getTime() - DAY / 2).toISOString() } as never, end: null })),
      listActivities: () => later(DB_MS, () => []),
    },
    vatWindow: (device) => later(WINDOW_MS, () => windowOf(device)),
    dairy: { listDockets: () => later(DB_MS, () => []) },
    alerts: { listSince: () => later(DB_MS, () => []) },
    watchman,
    now: () => now,
    log: createLogger({ bench: 'watchman' }, 'error'),
  });
  const t = performance.now();
  const outcome = await job.run();
  const ms = performance.now() - t;
  if (!outcome.ran) throw new Error(`watchman did not run: ${outcome.reason}`);
  const r = outcome.run;
  console.log(
    `${'Watchman run (10,000 farms, 40,000 vats)'.padEnd(44)} ${(ms / 1000).toFixed(1)} s (target ≤ 60 s): ${r.farms_milking} milking, ${r.farms_faulty} faulty, ${r.cases_created} cases opened, ${r.syncs_turned_off} syncs turned off; stores simulated at ${DB_MS}-${WINDOW_MS} ms a call`,
  );
};
