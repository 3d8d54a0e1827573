import { join } from 'node:path';
import type { FarmRepository } from '../../../lambdas/ports/farms';
import { createLogger } from '../../../lambdas/lib/logger';
import { isDairyCompanyFarm } from '../../../shared/entities/farm';
import { DEMO_DEVICES, DEMO_FARMS, DEMO_KNODE, DEMO_UNIT_IMEIS } from '../../seed/demo-data';
import { simFarmsFrom, startSimulator, type SimulatorHandle } from '../../simulator/simulator';
import type { DairyGateway } from '../../stand-ins/dairy-gateway';
import type { Closers } from '../closers';
import type { LocalConfig } from '../config';

const log = createLogger({ service: 'local-stack' });

/**
 * The demo farms' devices: 48 hours of history on the first start, then live, one reading a
 * minute per vat; the state file makes a restart continue each series where it stopped.
 */
export const startDemoDevices = async (config: LocalConfig, closers: Closers, mqttUrl: string, farms: FarmRepository, dairyGateway: DairyGateway): Promise<SimulatorHandle | undefined> => {
  if (!config.simulator) return undefined;
  // The live demo reports its dairy-company farms to the gateway stand-in (sync on), so the
  // farmer's event log and calibration have something to show. Tests switch it on themselves.
  for (const f of DEMO_FARMS.filter((x) => isDairyCompanyFarm(x.fonterra_id))) {
    const stored = await farms.getFarm(f._id);
    if (stored && !stored.fonterra_api_status) await farms.putFarm({ ...stored, fonterra_api_status: true });
  }
  const simulator = await startSimulator({
    mqttUrl,
    farms: simFarmsFrom(DEMO_FARMS, DEMO_DEVICES, DEMO_KNODE, DEMO_UNIT_IMEIS),
    stateFile: join(config.dataDir, 'simulator', 'state.json'),
    backfillHours: config.simulatorBackfillHours,
    randomFaults: true,
    controlPort: config.ports.simulator,
    log: (line) => log.info(line, { component: 'simulator' }),
    // The tanker's meter: each pickup of a dairy-company farm's vat becomes a docket at the gateway.
    onPickup: ({ device, at, litres, temperature }) => {
      const d = DEMO_DEVICES.find((x) => x.name === device);
      const farm = DEMO_FARMS.find((f) => f._id === d?.farm_id);
      if (!d || !farm || !isDairyCompanyFarm(farm.fonterra_id)) return;
      dairyGateway.tanker({ supplierId: farm.fonterra_id, vatId: d.vat_number, at: new Date(at).toISOString(), litres, temperature: temperature ?? 4 });
    },
  });
  closers.add(() => simulator.stop());
  return simulator;
};

/**
 * Once the simulator's 48 hours are in, Watchman runs at once: its page, its cases and the fleet
 * overview then show the demo's faults on a fresh start, not after the first hour.
 */
export const runWatchmanAfterCatchUp = (simulator: SimulatorHandle | undefined, watchman: (() => Promise<unknown>) | undefined): void => {
  if (!simulator || !watchman) return;
  void simulator.caughtUp
    .then(() => watchman())
    .then(() => log.info('Watchman ran on the caught-up demo data'))
    .catch((err: unknown) => log.error('Watchman run after the catch-up failed', { err }));
};
