import { X509Certificate } from 'node:crypto';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import type { FarmRepository } from '../../lambdas/ports/farms';
import { dynamoInstallRepository } from '../../lambdas/adapters/dynamodb/installs-repository';
import type { InstallRepository } from '../../lambdas/ports/installs';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import type { ReadingsRepository } from '../../lambdas/ports/readings';
import { FILL_ONE, installerContracts as c, type DeviceSearchAnswer, type UnitDownload } from '../../shared/api/actions/installer';
import type { IotOperation } from '../../local/stand-ins/iot-registry';
import { unitThingName, type InstallLogEntry } from '../../shared/entities/install';
import { DEMO_UNIT_IMEIS, demoFarm } from '../../local/seed/demo-data';
import { startTestStack } from '../support/local-stack';
import { until } from '../support/until';

/** /api/installer through the local stack (operator §2, §4, §5, §7; issue "Installer tools"). */
let stack: Awaited<ReturnType<typeof startTestStack>>;
let farms: FarmRepository;
let installs: InstallRepository;
let readings: ReadingsRepository;
let admin: string;
let installer: string;
let farmer: string;

const PRO_IMEI = DEMO_UNIT_IMEIS['farm-pro'] as string;
const PRO_UNIT = unitThingName(PRO_IMEI);

const call = async (type: keyof typeof c, fields: Record<string, string>, token = installer) => stack.post(c[type].path, { type, ...fields }, token);
const ok = async <T,>(type: keyof typeof c, fields: Record<string, string>, token = installer) => {
  const res = await call(type, fields, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as T;
};
const refused = async (type: keyof typeof c, fields: Record<string, string>, token = installer) => {
  const res = await call(type, fields, token);
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  return JSON.stringify(res.body);
};

const vatFields = (over: Record<string, string> = {}) => ({
  particleID: PRO_UNIT,
  farmID: 'farm-pro',
  deviceID: 'dev-31245-1',
  supplyNumber: '31245',
  vatNumber: '1',
  diameter: '2875',
  volume: '14000',
  height: '2438',
  manufacturer: 'Waikato Milking',
  serial: 'WM-1',
  radarSerial: 'RS-1',
  auto: 'false',
  oclock: '10',
  ...over,
});

beforeAll(async () => {
  stack = await startTestStack();
  const doc = createDocumentClient();
  farms = dynamoFarmRepository(doc, stack.facts.dynamodb.farmsTable);
  installs = dynamoInstallRepository(doc, stack.facts.dynamodb.farmsTable);
  readings = dynamoReadingsRepository(doc, stack.facts.dynamodb.readingsTable);
  [admin, installer, farmer] = await Promise.all([stack.signIn('admin@vatman.local'), stack.signIn('installer@vatman.local'), stack.signIn('farmer@vatman.local')]);
}, 180_000);
afterAll(async () => stack?.stop());

describe('who may use the installer tools', () => {
  it('refuses farmers and strangers every installer action (403 and 401)', async () => {
    for (const type of Object.keys(c) as (keyof typeof c)[]) {
      expect((await call(type, { supplyNumber: '31245' }, farmer)).status, type).toBe(403);
      expect((await call(type, { supplyNumber: '31245' }, '')).status, type).toBe(401);
    }
  });
});

describe('config search (DEVICE_SEARCH)', () => {
  it('finds the unit by supply number (key farm) and by IMEI (key imei), with the farm and its vats', async () => {
    const byFarm = await ok<DeviceSearchAnswer>('DEVICE_SEARCH', { supplyNumber: '31245' });
    expect(byFarm).toMatchObject({ key: 'farm', particle: { _id: PRO_UNIT, body: { imei: PRO_IMEI } }, farm: { _id: 'farm-pro', fonterra_id: '31245', package: 'Vat-Man Pro', lowConnectivity: false } });
    expect(byFarm.devices.map((d) => d.vat_number)).toEqual([1, 2]);
    const byImei = await ok<DeviceSearchAnswer>('DEVICE_SEARCH', { imei: PRO_IMEI }, admin);
    expect(byImei).toMatchObject({ key: 'imei', particle: { _id: PRO_UNIT }, farm: { fonterra_id: '31245' } });
    // The supply number is upper-cased (§2).
    expect((await ok<DeviceSearchAnswer>('DEVICE_SEARCH', { supplyNumber: 'fon50412' })).farm?._id).toBe('farm-auto');
  });

  it("answers no particle for an unknown IMEI or supply number, and no vats for a unit whose vats are not set up", async () => {
    expect(await ok<DeviceSearchAnswer>('DEVICE_SEARCH', { imei: '999999999999999' })).toMatchObject({ particle: null, farm: null, devices: [] });
    expect(await ok<DeviceSearchAnswer>('DEVICE_SEARCH', { supplyNumber: 'NOSUCH1' })).toMatchObject({ particle: null, devices: [] });
    await farms.putFarm(demoFarm({ _id: 'farm-bare', fonterra_id: 'OTH900', supplier: 'OTH', name: 'Bare', package: 'Vat-Man Lite', install_numVats: 1 }));
    await installs.putUnit({ _id: unitThingName('352656100000900'), imei: '352656100000900', farm_id: 'farm-bare', low_connectivity: true, created_at: new Date().toISOString() });
    expect(await ok<DeviceSearchAnswer>('DEVICE_SEARCH', { supplyNumber: 'OTH900' })).toMatchObject({ particle: { _id: 'unit-352656100000900' }, farm: { lowConnectivity: true }, devices: [] });
  });

  it("refuses both fields empty, or both filled, in the form's words", async () => {
    expect(await refused('DEVICE_SEARCH', {})).toContain(FILL_ONE);
    expect(await refused('DEVICE_SEARCH', { imei: PRO_IMEI, supplyNumber: '31245' })).toContain(FILL_ONE);
    expect(await refused('DEVICE_SEARCH', { imei: '12345' })).toContain('imei must be 15 digits');
  });
});

describe('device changes (PARTICLE_CONFIG)', () => {
  const fields = (over: Record<string, string> = {}) => ({ key: 'farm', particleID: PRO_UNIT, imei: PRO_IMEI, farmID: 'farm-pro', supplyNumber: '31245', productVariant: 'Vat-Man Auto', lowConnectivity: 'true', ...over });

  it("changes the farm's product variant and the unit's low connectivity flag", async () => {
    const { message } = await ok<{ message: string }>('PARTICLE_CONFIG', fields());
    expect(message).toContain('31245');
    expect((await farms.getFarm('farm-pro'))?.package).toBe('Vat-Man Auto');
    expect((await installs.getUnit(PRO_IMEI))?.low_connectivity).toBe(true);
    expect(stack.iot.thing(PRO_UNIT)?.attributes).toMatchObject({ variant: 'auto', low_connectivity: 'true', imei: PRO_IMEI, supply_number: '31245' });
    await ok('PARTICLE_CONFIG', fields({ productVariant: 'Vat-Man Pro', lowConnectivity: 'false' }));
    expect((await farms.getFarm('farm-pro'))?.package).toBe('Vat-Man Pro');
  });

  it("refuses a unit that is not the farm's, a supply number that is not the farm's, and an unknown variant", async () => {
    expect(await refused('PARTICLE_CONFIG', fields({ farmID: 'farm-auto', supplyNumber: 'FON50412' }))).toContain('This particle is not the unit of this farm');
    expect(await refused('PARTICLE_CONFIG', fields({ supplyNumber: 'FON50412' }))).toContain("is not this farm's");
    expect(await refused('PARTICLE_CONFIG', fields({ imei: DEMO_UNIT_IMEIS['farm-auto'] as string }))).toContain('This particle is not the unit of this farm');
    await refused('PARTICLE_CONFIG', fields({ productVariant: 'Vat-Man Max' }));
    expect((await farms.getFarm('farm-pro'))?.package).toBe('Vat-Man Pro');
  });
});

describe('vat changes (VAT_CONFIG)', () => {
  it("stores a vat's configuration with the O'Clock position, and a manual vat with its wedge height", async () => {
    const r = await ok<{ success: boolean; result: string }>('VAT_CONFIG', vatFields());
    expect(r).toMatchObject({ success: true, result: 'Vat 1 updated' });
    expect(await farms.getDevice('dev-31245-1')).toMatchObject({ vat_size: 14000, vat_max_height: 2438, vat_diameter: 2875, oclock: 10, radar_serial: 'RS-1', vat_manufacturer: 'Waikato Milking', vat_serial: 'WM-1' });
    await ok('VAT_CONFIG', vatFields({ height: '2500', volume: '14500', oclock: '', wedgeHeight: '75' }));
    expect(await farms.getDevice('dev-31245-1')).toMatchObject({ vat_size: 14500, vat_max_height: 2500, wedgeHeight: 75 });
    await ok('VAT_CONFIG', vatFields());
  });

  it('adds a vat to the farm (no deviceID) and counts it in the install', async () => {
    const r = await ok<{ result: string; device: { _id: string } }>('VAT_CONFIG', vatFields({ deviceID: '', vatNumber: '3', diameter: '2337', volume: '9100', height: '2438', radarSerial: 'RS-3' }));
    expect(r.result).toBe('Vat 3 added');
    expect(await farms.getDevice('dev-31245-3')).toMatchObject({ farm_id: 'farm-pro', vat_number: 3, name: 'vm-31245-3', status: 1, vat_size: 9100 });
    expect((await farms.getFarm('farm-pro'))?.install_numVats).toBe(3);
    // Vat 3 now exists: adding it again is refused.
    expect(await refused('VAT_CONFIG', vatFields({ deviceID: '', vatNumber: '3', radarSerial: 'RS-3' }))).toContain('Vat 3 already exists');
  });

  it('refuses what §5 refuses: an empty required field, a negative size, an O\'Clock beyond 12, and both radar fields', async () => {
    for (const f of ['diameter', 'volume', 'height', 'radarSerial']) expect(await refused('VAT_CONFIG', vatFields({ [f]: '' })), f).toContain('Required Field');
    expect(await refused('VAT_CONFIG', vatFields({ height: '-1' }))).toContain('height must be 0 or more');
    expect(await refused('VAT_CONFIG', vatFields({ oclock: '13' }))).toContain('oclock may be at most 12');
    expect(await refused('VAT_CONFIG', vatFields({ oclock: '', wedgeHeight: '-5' }))).toContain('wedgeHeight must be 0 or more');
    await refused('VAT_CONFIG', vatFields({ wedgeHeight: '60' }));
    await refused('VAT_CONFIG', vatFields({ vatNumber: '5' }));
  });

  it("refuses a vat of another farm and a device that is not the vat named", async () => {
    expect(await refused('VAT_CONFIG', vatFields({ deviceID: 'dev-fon50412-1' }))).toContain('is not vat 1 of this farm');
    expect(await refused('VAT_CONFIG', vatFields({ deviceID: 'dev-31245-2' }))).toContain('is not vat 1 of this farm');
    expect(await refused('VAT_CONFIG', vatFields({ farmID: 'farm-auto', supplyNumber: 'FON50412', deviceID: 'dev-fon50412-1' }))).toContain('This particle is not the unit of this farm');
  });
});

describe('install log (INSTALLS)', () => {
  const entry = (n: number, supply: string, type?: InstallLogEntry['type']): InstallLogEntry => {
    const at = new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString();
    return { _id: `e${n}`, created_at: at, updated_at: at, supply_number: supply, installer_name: 'Tom Fraser', imei: PRO_IMEI, result: 'ok', particle_id: PRO_UNIT, ...(type ? { type } : {}) };
  };

  it('pages of 50, newest first, by supply number and log type', async () => {
    for (let n = 0; n < 60; n += 1) await installs.putEntry(entry(n, 'LOG1', n % 3 === 0 ? undefined : n % 3 === 1 ? 'Check Online' : 'Check Diagnostics'));
    await installs.putEntry(entry(100, 'LOG2'));
    const first = await ok<{ count: number; installs: InstallLogEntry[] }>('INSTALLS', { supplyNumber: 'log1', logType: 'All', page: '0' });
    expect(first.count).toBe(60);
    expect(first.installs).toHaveLength(50);
    expect(first.installs[0]?._id).toBe('e59');
    expect((await ok<{ installs: InstallLogEntry[] }>('INSTALLS', { supplyNumber: 'LOG1', logType: 'All', page: '1' })).installs).toHaveLength(10);
    expect((await ok<{ count: number }>('INSTALLS', { supplyNumber: 'LOG1', logType: 'New Installs' })).count).toBe(20);
    expect((await ok<{ count: number }>('INSTALLS', { supplyNumber: 'LOG1', logType: 'Install Checks' })).count).toBe(20);
    expect((await ok<{ count: number }>('INSTALLS', { supplyNumber: 'LOG1', logType: 'Device Diagnostics' })).count).toBe(20);
    const all = await ok<{ count: number; installs: InstallLogEntry[] }>('INSTALLS', { supplyNumber: '', logType: 'New Installs' }, admin);
    expect(all.count).toBeGreaterThanOrEqual(21);
    expect(all.installs[0]?._id).toBe('e100');
    await refused('INSTALLS', { logType: 'Everything' });
    await refused('INSTALLS', { pageSize: '51' });
  });
});

describe('new install (NEW_INSTALL)', () => {
  const install = (imei: string, supplyNumber: string, over: Record<string, string> = {}) => ({
    imei,
    dairySupplier: 'OCD',
    supplyNumber,
    productVariant: 'Vat-Man Pro',
    numVats: '2',
    numDisplays: '1',
    lowConnectivity: 'false',
    timezone: 'Pacific/Chatham',
    // One vat from the height table (the 18000 L Sidewall row) and one entered by hand.
    vat1Diameter: '2875',
    vat1Volume: '18000',
    vat1Height: '2750',
    vat1RadarSerial: 'R-1',
    vat1OClock: '12',
    vat2Diameter: '2500',
    vat2Volume: '10000',
    vat2Height: '2100',
    vat2RadarSerial: 'R-2',
    vat2OClock: '10',
    vat2Manufacturer: 'Handmade',
    ...over,
  });
  type Answer = { success: boolean; result: string; redirect: boolean; download?: UnitDownload };

  it('provisions the unit for real: thing, certificate with the device policy, farm, vats, unit and log entry; the download once', async () => {
    const imei = '352656100000501';
    const r = await ok<Answer>('NEW_INSTALL', install(imei, '77001'));
    expect(r).toMatchObject({ success: true, redirect: true, result: 'Vat-Man installed for 77001: 2 vats' });
    const d = r.download as UnitDownload;
    expect(d).toMatchObject({ thingName: 'unit-352656100000501', endpoint: 'localhost' });
    // A real X.509 certificate from the local CA, with its private key.
    const cert = new X509Certificate(d.certificatePem);
    expect(cert.verify(new X509Certificate(d.rootCaPem as string).publicKey)).toBe(true);
    expect(d.privateKey).toContain('PRIVATE KEY');
    const thing = stack.iot.thing('unit-352656100000501');
    expect(thing?.attributes).toEqual({ imei, supply_number: '77001', variant: 'pro', low_connectivity: 'false' });
    const stored = stack.iot.certificates().find((x) => x.certificateId === d.certificateId);
    expect(stored).toMatchObject({ status: 'ACTIVE', policies: ['vatman-local-device-policy'] });
    expect(thing?.principals).toEqual([stored?.certificateArn]);
    // The farm with its supplier code and zone, its vats, its unit.
    expect(await farms.findFarmBySupplyNumber('77001')).toMatchObject({ _id: 'farm-77001', supplier: 'OCD', timezone: 'Pacific/Chatham', package: 'Vat-Man Pro', install_numVats: 2 });
    expect(await farms.getDevice('dev-77001-1')).toMatchObject({ vat_size: 18000, vat_max_height: 2750, vat_diameter: 2875, oclock: 12, radar_serial: 'R-1' });
    expect(await farms.getDevice('dev-77001-2')).toMatchObject({ vat_size: 10000, vat_max_height: 2100, vat_manufacturer: 'Handmade' });
    expect(await installs.getUnit(imei)).toMatchObject({ farm_id: 'farm-77001', num_displays: 1, certificate_id: d.certificateId });
    const search = await ok<DeviceSearchAnswer>('DEVICE_SEARCH', { imei });
    expect(search.devices.map((v) => v.vat_number)).toEqual([1, 2]);
    const logged = await ok<{ count: number; installs: InstallLogEntry[] }>('INSTALLS', { supplyNumber: '77001', logType: 'New Installs' });
    expect(logged.count).toBe(1);
    expect(logged.installs[0]).toMatchObject({ imei, numVats: 2, particle_id: 'unit-352656100000501', installer_name: 'Tom Fraser' });
    expect(logged.installs[0]?.type).toBeUndefined();
    // Neither the supply number nor the IMEI can be installed twice.
    expect(await refused('NEW_INSTALL', install(imei, '77002'))).toContain('is already installed');
    expect(await refused('NEW_INSTALL', install('352656100000502', '77001'))).toContain('is already installed');
  });

  it('leaves no thing, certificate, farm, device or unit behind when a step after CreateThing fails', async () => {
    const steps: IotOperation[] = ['CreateKeysAndCertificate', 'AttachPolicy', 'AttachThingPrincipal', 'DescribeEndpoint'];
    for (const [i, step] of steps.entries()) {
      const imei = `35265610000060${i}`;
      const supply = `7710${i}`;
      const certificates = stack.iot.certificates().length;
      stack.iot.failNext(step);
      const r = await ok<Answer>('NEW_INSTALL', install(imei, supply));
      expect(r, step).toMatchObject({ success: false, redirect: false });
      expect(r.result, step).toContain('nothing was kept');
      expect(r.download, step).toBeUndefined();
      expect(stack.iot.thing(`unit-${imei}`), step).toBeUndefined();
      expect(stack.iot.certificates().length, step).toBe(certificates);
      expect(await farms.findFarmBySupplyNumber(supply), step).toBeUndefined();
      expect(await farms.getFarm(`farm-${supply}`), step).toBeUndefined();
      expect(await farms.getDevice(`dev-${supply}-1`), step).toBeUndefined();
      expect(await farms.getDevice(`dev-${supply}-2`), step).toBeUndefined();
      expect(await installs.getUnit(imei), step).toBeUndefined();
      expect((await farms.listDevices()).some((dev) => dev.farm_id === `farm-${supply}`), step).toBe(false);
      expect((await ok<{ count: number }>('INSTALLS', { supplyNumber: supply })).count, step).toBe(0);
      // The same install goes through once IoT answers again.
      expect((await ok<Answer>('NEW_INSTALL', install(imei, supply))).success, step).toBe(true);
    }
  });

  it('refuses what §5 refuses before provisioning anything', async () => {
    const before = stack.iot.certificates().length;
    expect(await refused('NEW_INSTALL', install('352656100000700', '77200', { vat2RadarSerial: '' }))).toContain('vat2RadarSerial: Required Field');
    expect(await refused('NEW_INSTALL', install('352656100000700', '77200', { vat1Height: '' }))).toContain('vat1Height: Required Field');
    expect(await refused('NEW_INSTALL', install('352656100000700', '77200', { vat1Diameter: '-1' }))).toContain('vat1Diameter must be 0 or more');
    await refused('NEW_INSTALL', install('352656100000700', '77200', { numVats: '5' }));
    await refused('NEW_INSTALL', install('352656100000700', '77200', { numDisplays: '5' }));
    await refused('NEW_INSTALL', install('352656100000700', '77200', { dairySupplier: 'XYZ' }));
    await refused('NEW_INSTALL', install('352656100000700', '77200', { timezone: 'Mars/Olympus' }));
    await refused('NEW_INSTALL', install('352656100000700', '77200', { vat1OClock: '13' }));
    // Vat 3's fields are not needed for a two-vat install; a one-vat install ignores vat 2's.
    expect((await ok<Answer>('NEW_INSTALL', install('352656100000700', '77200', { numVats: '1', vat2Height: '' }))).success).toBe(true);
    expect(await farms.getDevice('dev-77200-2')).toBeUndefined();
    expect(stack.iot.certificates().length).toBe(before + 1);
  });
});

describe("the broker's mutual-TLS port", () => {
  it("takes a provisioned unit's certificate, lets it publish to its own topics only (its vats' readings reach the ingest), and refuses another unit's topics and strangers", async () => {
    const r = await ok<{ download: UnitDownload }>('NEW_INSTALL', {
      imei: '352656100000801',
      dairySupplier: 'OTH',
      supplyNumber: '77800',
      productVariant: 'Vat-Man Lite',
      numVats: '1',
      vat1Diameter: '2337',
      vat1Volume: '9100',
      vat1Height: '2438',
      vat1RadarSerial: 'R-800',
    });
    const d = r.download;
    const tls = { key: d.privateKey, cert: d.certificatePem, ca: d.rootCaPem as string, reconnectPeriod: 0, connectTimeout: 5_000 };
    const watcher = await mqtt.connectAsync(stack.facts.mqtt, { clientId: 'tls-watcher' });
    const seen: string[] = [];
    watcher.on('message', (topic) => seen.push(topic));
    await watcher.subscribeAsync('dts/#');
    try {
      // Its own vat's telemetry topic: delivered, and stored as that vat device's reading.
      const unit = await mqtt.connectAsync(stack.facts.mqttTls, { ...tls, clientId: d.thingName });
      const at = new Date().toISOString();
      await unit.publishAsync(`dts/${d.thingName}/1/telemetry`, JSON.stringify({ published_at: at, radar_distance: 1200, temp1: 4 }), { qos: 1 });
      await until(async () => (seen.includes(`dts/${d.thingName}/1/telemetry`) ? true : undefined), { timeoutMs: 5_000 });
      await until(async () => ((await readings.getRaw('dev-77800-1', at)) ? true : undefined), { timeoutMs: 15_000 });
      // Another unit's topic: refused, the connection closed, nothing delivered.
      const closed = new Promise<void>((resolve) => unit.once('close', () => resolve()));
      unit.publish(`dts/unit-${PRO_IMEI}/1/telemetry`, '{}', { qos: 1 });
      await closed;
      expect(seen).not.toContain(`dts/unit-${PRO_IMEI}/1/telemetry`);
      await unit.endAsync(true);
      // Nor another unit's command topics, nor another vat device's per-vat topic.
      for (const [topic, act] of [
        [`dts/unit-${PRO_IMEI}/cmd/check`, 'subscribe'],
        ['dts/vm-31245-1/telemetry', 'publish'],
      ] as const) {
        const again = await mqtt.connectAsync(stack.facts.mqttTls, { ...tls, clientId: d.thingName });
        const gone = new Promise<void>((resolve) => again.once('close', () => resolve()));
        if (act === 'publish') again.publish(topic, '{}', { qos: 1 });
        else again.subscribe(topic, { qos: 1 });
        await gone;
        await again.endAsync(true);
      }
      expect(seen).not.toContain('dts/vm-31245-1/telemetry');
      // Connecting as another thing's client id is refused.
      await expect(mqtt.connectAsync(stack.facts.mqttTls, { ...tls, clientId: PRO_UNIT })).rejects.toThrow();
      // No certificate: the TLS handshake fails.
      await expect(mqtt.connectAsync(stack.facts.mqttTls, { ca: tls.ca, reconnectPeriod: 0, connectTimeout: 5_000, clientId: d.thingName })).rejects.toThrow();
    } finally {
      await watcher.endAsync();
    }
  });
});
