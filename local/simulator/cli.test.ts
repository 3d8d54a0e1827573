import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import { deviceSchema } from '../../shared/entities/device';
import { farmSchema } from '../../shared/entities/farm';
import { freePort } from '../../test/support/free-port';
import { ensureTables, startDynamo } from '../stand-ins/dynamodb';
import { startMqttBroker } from '../stand-ins/mqtt-broker';
import { main, parseCli } from './cli';
import { startSimulator } from './simulator';
import { INSTALLER_VATS, syntheticFarms } from './synthetic';

describe('simulate CLI flags', () => {
  it('parses a simulation and a fault, with defaults', () => {
    expect(parseCli(['--farms', '3', '--speed', '120'])).toEqual({ mode: 'simulate', farms: 3, speed: 120, hours: 48, seed: 1, randomFaults: false });
    expect(parseCli(['--farms', '1', '--hours', '6', '--seed', '9', '--random-faults'])).toMatchObject({ hours: 6, seed: 9, randomFaults: true, speed: 60 });
    expect(parseCli(['--fault', 'chiller_off', '--device', 'vm-ocd40721-1', '--minutes', '120'])).toEqual({
      mode: 'fault',
      kind: 'chiller_off',
      device: 'vm-ocd40721-1',
      minutes: 120,
    });
    expect(parseCli(['--help'])).toEqual({ mode: 'help' });
    expect(parseCli(['--farms', '1', '--hours', '720', '--package', 'Auto'])).toMatchObject({ hours: 720, package: 'Vat-Man Auto' });
    expect(parseCli(['--farms', '1'])).not.toHaveProperty('package');
  });

  it('--package gives every synthetic farm that package (the rng does not move, so the vats stay the same)', () => {
    const mixed = syntheticFarms(3, 1);
    const auto = syntheticFarms(3, 1, new Date(), 'Vat-Man Auto');
    expect(auto.farms.map((f) => f.package)).toEqual(['Vat-Man Auto', 'Vat-Man Auto', 'Vat-Man Auto']);
    expect(auto.devices.map((d) => [d._id, d.vat_size, d.vat_auto])).toEqual(mixed.devices.map((d) => [d._id, d.vat_size, true]));
  });

  it.each([
    [['--farms', 'lots'], /--farms lots: must be a whole number from 1 to 500/],
    [['--farms', '0'], /--farms 0/],
    [['--farms', '2', '--speed', '0.5'], /--speed 0.5: must be a number from 1/],
    [['--farms', '2', '--hours', '0'], /--hours 0/],
    [['--farms', '2', '--colour', 'red'], /Unknown option '--colour'/],
    [['--speed', '5'], /--farms N is required/],
    [['--farms', '1', '--package', 'Gold'], /--package Gold: must be Lite, Pro or Auto/],
    [['--fault', 'offline', '--device', 'x', '--minutes', '5', '--package', 'Pro'], /--fault cannot be combined with --package/],
    [['--fault', 'flood', '--device', 'x', '--minutes', '5'], /must be one of power_cut, agitator_stop, chiller_off, warm_plate, offline/],
    [['--fault', 'offline', '--minutes', '5'], /--fault needs --device/],
    [['--fault', 'offline', '--device', 'x'], /--fault needs --minutes/],
    [['--fault', 'offline', '--device', 'x', '--minutes', '2.5'], /--minutes 2.5: must be a whole number/],
    [['--fault', 'offline', '--device', 'x', '--minutes', '5', '--farms', '2'], /cannot be combined with --farms/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseCli(argv)).toThrow(message);
  });
});

describe('synthetic farms', () => {
  it('are valid farms and devices, SIM0001…, a mix of packages, 1-4 vats from the installer table, the same for a seed', () => {
    const { farms, devices } = syntheticFarms(12, 4);
    expect(farms.map((f) => f.fonterra_id).slice(0, 2)).toEqual(['SIM0001', 'SIM0002']);
    expect(new Set(farms.map((f) => f.package))).toEqual(new Set(['Vat-Man Lite', 'Vat-Man Pro', 'Vat-Man Auto']));
    for (const f of farms) {
      farmSchema.parse(f);
      const vats = devices.filter((d) => d.farm_id === f._id);
      expect(vats).toHaveLength(f.install_numVats);
      expect(f.install_numVats).toBeGreaterThanOrEqual(1);
      expect(f.install_numVats).toBeLessThanOrEqual(4);
    }
    for (const d of devices) {
      deviceSchema.parse(d);
      expect(INSTALLER_VATS.some((r) => r.diameter === d.vat_diameter && r.volume === d.vat_size && r.height === d.vat_max_height)).toBe(true);
    }
    expect(syntheticFarms(12, 4)).toEqual(syntheticFarms(12, 4));
  });
});

describe('simulate CLI against a local stack', () => {
  let dir: string;
  let dynamo: Awaited<ReturnType<typeof startDynamo>>;
  let broker: Awaited<ReturnType<typeof startMqttBroker>>;
  let farmsTable: string;
  const published: string[] = [];
  const out: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vatman-cli-'));
    process.env.AWS_ACCESS_KEY_ID = 'local';
    process.env.AWS_SECRET_ACCESS_KEY = 'local';
    dynamo = await startDynamo(await freePort());
    const tables = await ensureTables(new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1' }), 'clitest');
    farmsTable = tables.FARMS_TABLE as string;
    broker = await startMqttBroker(await freePort(), [], () => undefined);
    broker.broker.on('publish', (packet, client) => {
      if (client) published.push(packet.topic);
    });
    vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await broker.close();
    await dynamo.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says clearly when the stack is not running', async () => {
    out.length = 0;
    expect(await main(['--farms', '1'], { dataDir: join(dir, 'nowhere') })).toBe(2);
    expect(out.join('\n')).toMatch(/The local stack is not running: .*local\.json not found\. Start it with: npm start/);
    out.length = 0;
    writeFileSync(join(dir, 'local.json'), JSON.stringify({ mqtt: broker.url, dynamodb: { endpoint: `http://127.0.0.1:${await freePort()}`, farmsTable } }));
    expect(await main(['--farms', '1'], { dataDir: dir })).toBe(2);
    expect(out.join('\n')).toMatch(/The local stack is not running: nothing answers at http:\/\/127\.0\.0\.1:\d+ \(DynamoDB\)/);
    out.length = 0;
    writeFileSync(join(dir, 'local.json'), JSON.stringify({ mqtt: `mqtt://127.0.0.1:${await freePort()}`, simulator: { control: `http://127.0.0.1:${await freePort()}` } }));
    expect(await main(['--fault', 'offline', '--device', 'vm-x-1', '--minutes', '5'], { dataDir: dir })).toBe(2);
    expect(out.join('\n')).toMatch(/The local stack is not running: nothing answers at http:\/\/127\.0\.0\.1:\d+\/faults/);
  });

  it('provisions the synthetic farms into DynamoDB and publishes their readings', async () => {
    writeFileSync(join(dir, 'local.json'), JSON.stringify({ mqtt: broker.url, dynamodb: { endpoint: dynamo.endpoint, farmsTable } }));
    out.length = 0;
    const code = await main(['--farms', '2', '--speed', '100000', '--hours', '1', '--seed', '3'], { dataDir: dir, waitForStop: (sim) => sim.caughtUp });
    expect(out.join('\n')).toMatch(/Provisioned 2 farm\(s\)/);
    expect(code).toBe(0);
    const repo = dynamoFarmRepository(createDocumentClient({ DYNAMODB_ENDPOINT: dynamo.endpoint, AWS_REGION: 'us-east-1' }), farmsTable);
    const { devices } = syntheticFarms(2, 3);
    expect((await repo.listDevices()).map((d) => d.name).sort()).toEqual(devices.map((d) => d.name).sort());
    expect((await repo.findFarmBySupplyNumber('SIM0002'))?.package).toBe('Vat-Man Pro');
    for (const d of devices) expect(published.filter((t) => t === `dts/${d.name}/telemetry`).length).toBeGreaterThanOrEqual(59);
  });

  it('posts a fault to the running simulator control server', async () => {
    const sim = await startSimulator({
      mqttUrl: broker.url,
      farms: [{ fonterra_id: 'T1', timezone: 'Pacific/Auckland', vats: [{ device: 'vm-t1-1', vat: { vat_size: 9100, vat_max_height: 2438, vat_diameter: 2337, wedgeHeight: 60, vat_volume_offset: 0 } }] }],
      backfillHours: 0.05,
      controlPort: 0,
    });
    try {
      writeFileSync(join(dir, 'local.json'), JSON.stringify({ mqtt: broker.url, simulator: { control: sim.controlUrl } }));
      out.length = 0;
      expect(await main(['--fault', 'chiller_off', '--device', 'vm-t1-1', '--minutes', '120'], { dataDir: dir })).toBe(0);
      expect(out.join('\n')).toMatch(/chiller_off on vm-t1-1 from .* to /);
      expect(sim.faults()).toEqual([expect.objectContaining({ device: 'vm-t1-1', kind: 'chiller_off' })]);
      out.length = 0;
      expect(await main(['--fault', 'chiller_off', '--device', 'vm-zz-1', '--minutes', '120'], { dataDir: dir })).toBe(2);
      expect(out.join('\n')).toMatch(/The simulator refused the fault: unknown device 'vm-zz-1'/);
    } finally {
      await sim.stop();
    }
  });
});
