import { DEMO_DEVICES, DEMO_FARMS, DEMO_KNODE, DEMO_UNIT_IMEIS } from '../../local/seed/demo-data';
import { simFarmsFrom, startSimulator, type SimulatorHandle } from '../../local/simulator/simulator';

/**
 * A demo farm with `hours` of simulated readings published over MQTT (as `npm start` backfills),
 * then live, one reading a minute per vat: for screens checked with their data (charts, milkings).
 * Resolves once every vat has published up to now; stop the handle after.
 */
export const simulateDemoFarm = async (mqttUrl: string, farmId: string, hours: number, catchUpPerSecond?: number): Promise<SimulatorHandle> => {
  const farm = DEMO_FARMS.find((f) => f._id === farmId);
  if (!farm) throw new Error(`no demo farm ${farmId}`);
  const sim = await startSimulator({ mqttUrl, farms: simFarmsFrom([farm], DEMO_DEVICES, DEMO_KNODE, DEMO_UNIT_IMEIS), backfillHours: hours, ...(catchUpPerSecond ? { catchUpPerSecond } : {}) });
  await sim.caughtUp;
  return sim;
};
