/**
 * Device fleet (issue "Device fleet"): DEVICE_LIST and DEVICE_ONE through the local API with 2,000
 * devices on 500 farms, as Admin. Target: each under 300 ms. The devices are written straight
 * through the repository, with live values, before the calls are timed.
 */
import { performance } from 'node:perf_hooks';
import { createDocumentClient } from '../lambdas/adapters/dynamodb/client';
import { dynamoFarmRepository } from '../lambdas/adapters/dynamodb/farms-repository';
import type { Device } from '../shared/entities/device';
import type { Farm } from '../shared/entities/farm';
import { demoFarm } from '../local/seed/demo-data';
import type { LocalFacts } from '../local/start';

const DEVICES = 2_000;
const FARMS = 500;
const CALLS = 15;

type Post = (path: string, fields: Record<string, string>, token?: string) => Promise<{ status: number; body: unknown }>;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** 2,000 devices on 500 farms with live values, written straight through the repository (also bench:web's device list page). */
export const writeFleet = async (facts: LocalFacts) => {
  const farms = dynamoFarmRepository(createDocumentClient(), facts.dynamodb.farmsTable);
  const now = Date.now();
  const farmRows: Farm[] = Array.from({ length: FARMS }, (_, i) =>
    demoFarm({ _id: `bench-farm-${i}`, fonterra_id: String(60000 + i), name: `Bench farm ${i}`, package: 'Vat-Man Pro', install_numVats: 4 }),
  );
  const written = performance.now();
  for (let i = 0; i < farmRows.length; i += 50) await Promise.all(farmRows.slice(i, i + 50).map((f) => farms.putFarm(f)));
  const devices: Device[] = Array.from({ length: DEVICES }, (_, i) => ({
    _id: `bench-dev-${i}`,
    name: `vm-bench-${i}`,
    farm_id: `bench-farm-${i % FARMS}`,
    vat_number: (Math.floor(i / FARMS) % 4) + 1,
    status: 1,
    system_version: '5.6.0',
    vat_size: 14000,
    vat_max_height: 2438,
    vat_diameter: 2875,
    wedgeHeight: 0,
    vat_volume_offset: 0,
    vat_auto: false,
  }));
  for (let i = 0; i < devices.length; i += 50) await Promise.all(devices.slice(i, i + 50).map((d) => farms.putDevice(d)));
  for (let i = 0; i < devices.length; i += 50) {
    await Promise.all(
      devices.slice(i, i + 50).map((d) =>
        farms.commitIngest(d._id, { n: 1, state: {} }, undefined, { lastUpdated: { published_at: new Date(now - 60_000).toISOString(), milk_level: 900, temp1: 4, temp2: 12, shaft_rpm: 400, state_machine: 'storage' }, seenAt: new Date(now).toISOString() }),
      ),
    );
  }
  console.log(`device fleet: ${DEVICES} devices on ${FARMS} farms written in ${((performance.now() - written) / 1000).toFixed(1)} s`);
};


export const benchDeviceFleet = async (facts: LocalFacts, post: Post, adminToken: string) => {
  await writeFleet(facts);

  const time = async (label: string, fields: Record<string, string>, check: (body: unknown) => void) => {
    const times: number[] = [];
    for (let i = 0; i < CALLS; i += 1) {
      const t = performance.now();
      const res = await post('/api/admin/device', fields, adminToken);
      times.push(performance.now() - t);
      if (res.status !== 200) throw new Error(`${label}: status ${res.status}`);
      check(res.body);
    }
    const first = times[0] ?? Number.NaN;
    const rest = times.slice(1).sort((a, b) => a - b);
    console.log(`${label.padEnd(44)} first ${first.toFixed(1)} ms, then p50 ${pct(rest, 50).toFixed(1)} ms, p95 ${pct(rest, 95).toFixed(1)} ms (target < 300 ms)`);
  };
  await time('DEVICE_LIST (2,000+ devices, Admin)', { type: 'DEVICE_LIST', isRetired: '1' }, (b) => {
    if (!Array.isArray(b) || b.length < DEVICES) throw new Error('DEVICE_LIST answered too few devices');
  });
  await time('DEVICE_ONE (one device of 2,000)', { type: 'DEVICE_ONE', device_id: 'bench-dev-1234' }, () => undefined);
};
