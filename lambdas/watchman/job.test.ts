import { describe, expect, it } from 'vitest';
import { WATCHMAN_DEFAULTS } from '../../shared/constants';
import { demoFarm } from '../../local/seed/demo-data';
import type { Device } from '../../shared/entities/device';
import type { WatchmanCase, WatchmanRun } from '../../shared/watchman/records';
import type { WatchmanSettings } from '../../shared/watchman/settings';
import type { WatchmanRepository } from '../ports/watchman';
import { createLogger } from '../lib/logger';
import { makeWatchman, type WatchmanDeps } from './job';

const NOW = new Date('2026-06-10T12:00:00Z');
const farms = Array.from({ length: 10 }, (_, i) => demoFarm({ _id: `f${i}`, fonterra_id: `OTH${i}`, name: `F${i}`, package: 'Vat-Man Lite', install_numVats: 1, supplier: 'OTH' }));
const device = (farmId: string): Device => ({ _id: `${farmId}-1`, name: `${farmId}-1`, farm_id: farmId, vat_number: 1, status: 1, vat_size: 1, vat_max_height: 1, vat_diameter: 1, wedgeHeight: 0, vat_volume_offset: 0, vat_auto: false });

/** The job's control flow with stores in memory: the rules themselves are in shared/watchman/rules.test.ts. */
const setup = (settings: () => Partial<WatchmanSettings>) => {
  const runs: WatchmanRun[] = [];
  const open = new Map<string, WatchmanCase>();
  let lease: string | undefined;
  const watchman: WatchmanRepository = {
    getSettings: async () => settings(),
    putSettings: async () => undefined,
    acquireLease: async (id) => (lease ? false : ((lease = id), true)),
    releaseLease: async (id) => {
      if (lease === id) lease = undefined;
    },
    putRun: async (r) => void runs.push(r),
    listRuns: async () => runs,
    countRuns: async () => runs.length,
    listOpenCases: async () => [...open.values()],
    openCase: async (c) => (open.has(c.farm_id) ? 'exists' : (open.set(c.farm_id, c), 'created')),
    closeCase: async (c) => void open.delete(c.farm_id),
  };
  let started = 0;
  const deps: WatchmanDeps = {
    farms: { listFarms: async () => farms, listDevicesOfFarm: async (id) => ((started += 1), [device(id)]), setFarmFlag: async () => undefined },
    readings: { latestActivity: async () => undefined, listActivities: async () => [] },
    vatWindow: async () => ({ points: [], ends: [] }),
    dairy: { listDockets: async () => [] },
    alerts: { listSince: async () => [] },
    watchman,
    now: () => NOW,
    log: createLogger({ test: 'watchman-job' }, 'error'),
    concurrency: 1,
    onStatusRecheckMs: 0,
  };
  return { deps, runs, started: () => started };
};

describe('the Watchman job', () => {
  it('records a finished run with every farm counted (no milking yet: all dry)', async () => {
    const { deps, runs } = setup(() => ({}));
    const outcome = await makeWatchman(deps).run();
    expect(outcome).toMatchObject({ ran: true, run: { outcome: 'done', farms_total: 10, farms_dry: 10, farms_milking: 0 } });
    expect(runs.map((r) => r.outcome)).toEqual(['running', 'done']);
  });

  it('ends a run at its next farm once on_status is turned off, and starts none while it is off', async () => {
    let calls = 0;
    const { deps, started } = setup(() => ({ on_status: (calls += 1) <= 4 }));
    const outcome = await makeWatchman(deps).run();
    expect(outcome).toMatchObject({ ran: true, run: { outcome: 'stopped', farms_total: 3 } });
    expect(started()).toBe(3);
    expect(await makeWatchman(deps).run()).toEqual({ ran: false, reason: 'off' });
  });

  it('counts a device registry failure on the run and goes on with the next farm', async () => {
    const { deps } = setup(() => ({ ...WATCHMAN_DEFAULTS }));
    const failing: WatchmanDeps = { ...deps, farms: { ...deps.farms, listDevicesOfFarm: async (id) => (id === 'f3' ? Promise.reject(new Error('registry down')) : [device(id)]) } };
    expect(await makeWatchman(failing).run()).toMatchObject({ ran: true, run: { outcome: 'done', farms_total: 10, farms_dry: 9, error_particle_api: 1 } });
  });
});
