import { CreateThingCommand, DeleteThingCommand, IoTClient } from '@aws-sdk/client-iot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoAuditRepository } from '../../lambdas/adapters/dynamodb/audit-repository';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import { dynamoInstallRepository } from '../../lambdas/adapters/dynamodb/installs-repository';
import type { FarmRepository } from '../../lambdas/ports/farms';
import { DEMO_UNIT_IMEIS } from '../../local/seed/demo-data';
import type { AuditEntry, AuditPageAnswer } from '../../shared/entities/audit';
import { unitThingName } from '../../shared/entities/install';
import { WATCHMAN_DEFAULTS } from '../../shared/constants';
import { camelOf } from '../../shared/watchman/settings';
import { startTestStack } from '../support/local-stack';

/**
 * Each operator-side change is on record with the change itself (decision 050): the device list's
 * audit (DEVICE_AUDIT_LIST), the Farms page's (package), Watchman's Activity (its settings).
 * The fault side (the entry's write fails, so the change is not made) is in faults.test.ts.
 */
let stack: Awaited<ReturnType<typeof startTestStack>>;
let farms: FarmRepository;
let admin: string;
let installer: string;

const ok = async <T,>(path: string, type: string, fields: Record<string, string> = {}, token = admin) => {
  const res = await stack.post(path, { type, ...fields }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as T;
};
const deviceAudit = async () => (await ok<AuditPageAnswer>('/api/admin/device', 'DEVICE_AUDIT_LIST')).entries;
const byAdmin = { _id: expect.any(String), email: 'admin@vatman.local' };

beforeAll(async () => {
  stack = await startTestStack(undefined, undefined, { dairySync: false, watchman: false });
  farms = dynamoFarmRepository(createDocumentClient(), process.env.FARMS_TABLE as string);
  [admin, installer] = await Promise.all([stack.signIn('admin@vatman.local'), stack.signIn('installer@vatman.local')]);
}, 180_000);
afterAll(async () => stack?.stop());

describe('the device list audit (DEVICE_AUDIT_LIST)', () => {
  it('records a retire and a restore with the status change, newest first', async () => {
    await ok('/api/admin/device', 'DEVICE_EDIT', { device_id: 'dev-wes118-3', status: '2' });
    expect((await farms.getDevice('dev-wes118-3'))?.status).toBe(2);
    await ok('/api/admin/device', 'DEVICE_EDIT', { device_id: 'dev-wes118-3', status: '1' });
    const [restore, retire] = await deviceAudit();
    expect(retire).toMatchObject({ by: byAdmin, action: 'DEVICE_EDIT', target: 'vm-wes118-3', before: 'Active', after: 'Inactive' });
    expect(restore).toMatchObject({ action: 'DEVICE_EDIT', target: 'vm-wes118-3', before: 'Inactive', after: 'Active' });
    expect(Date.parse(restore?.at ?? '')).toBeGreaterThanOrEqual(Date.parse(retire?.at ?? ''));
    // A toggle to the status it already has changes nothing, so nothing is recorded.
    const count = (await deviceAudit()).length;
    await ok('/api/admin/device', 'DEVICE_EDIT', { device_id: 'dev-wes118-3', status: '1' });
    expect((await deviceAudit()).length).toBe(count);
  });

  it('pages newest first with a cursor', async () => {
    const audit = dynamoAuditRepository(createDocumentClient(), process.env.FARMS_TABLE as string);
    const first = await audit.list('device', 1);
    expect(first.entries).toHaveLength(1);
    expect(first.cursor).toBeDefined();
    const second = await audit.list('device', 1, first.cursor);
    expect(second.entries).toHaveLength(1);
    expect((second.entries[0]?.at ?? '') <= (first.entries[0]?.at ?? '')).toBe(true);
    expect(second.entries[0]).not.toEqual(first.entries[0]);
  });

  it('is for Admins: an Installer, who may toggle devices, may not read it', async () => {
    expect((await stack.post('/api/admin/device', { type: 'DEVICE_AUDIT_LIST' }, installer)).status).toBe(403);
  });

  it("records each name loaded from the thing registry with the rename", async () => {
    await farms.putDevice({ _id: 'dev-audit-9', name: 'vm-audit-9', farm_id: 'farm-lite', vat_number: 4, status: 1, vat_size: 10_000, vat_max_height: 2000, vat_diameter: 2500, wedgeHeight: 0, vat_volume_offset: 0, vat_auto: false });
    const iot = new IoTClient({ endpoint: stack.iot.endpoint, region: 'us-east-1' });
    await iot.send(new CreateThingCommand({ thingName: 'vm-audit-9-renamed', attributePayload: { attributes: { device_id: 'dev-audit-9' } } }));
    try {
      const answer = await ok<{ renamed: { _id: string; from: string; to: string }[] }>('/api/admin/device', 'DEVICE_LOAD_NAME');
      expect(answer.renamed).toContainEqual({ _id: 'dev-audit-9', from: 'vm-audit-9', to: 'vm-audit-9-renamed' });
      expect((await farms.getDevice('dev-audit-9'))?.name).toBe('vm-audit-9-renamed');
      expect((await farms.listDevices()).find((d) => d._id === 'dev-audit-9')?.name).toBe('vm-audit-9-renamed');
      expect((await deviceAudit())[0]).toMatchObject({ by: byAdmin, action: 'DEVICE_LOAD_NAME', target: 'dev-audit-9', before: 'vm-audit-9', after: 'vm-audit-9-renamed' });
    } finally {
      await iot.send(new DeleteThingCommand({ thingName: 'vm-audit-9-renamed' }));
    }
  });

  it("records calibration's vat settings with the stored config", async () => {
    await ok('/api/installer', 'VAT_SETTINGS', { supplyNumber: '31245', vatNumber: '2', vatSize: '21000', height: '2600', diameter: '3300', wedgeHeight: '40', volumeOffset: '5' });
    expect(await farms.getDevice('dev-31245-2')).toMatchObject({ vat_size: 21_000, vat_max_height: 2600, vat_diameter: 3300, wedgeHeight: 40, vat_volume_offset: 5 });
    const entry = (await deviceAudit())[0];
    expect(entry).toMatchObject({ action: 'VAT_SETTINGS', target: 'vm-31245-2 (31245 vat 2)', after: 'size 21000 L, height 2600 mm, diameter 3300 mm, wedge 40 mm, offset 5 L' });
  });
});

describe('the package on the Farms page audit (PARTICLE_CONFIG)', () => {
  it('records the package and low connectivity with the change', async () => {
    const imei = DEMO_UNIT_IMEIS['farm-pro'] as string;
    const before = (await farms.getFarm('farm-pro'))?.package;
    await ok('/api/installer', 'PARTICLE_CONFIG', { key: 'farm', particleID: unitThingName(imei), imei, farmID: 'farm-pro', supplyNumber: '31245', productVariant: 'Vat-Man Auto', lowConnectivity: 'true' }, installer);
    expect((await farms.getFarm('farm-pro'))?.package).toBe('Vat-Man Auto');
    expect((await dynamoInstallRepository(createDocumentClient(), process.env.FARMS_TABLE as string).getUnit(imei))?.low_connectivity).toBe(true);
    const [entry] = await ok<AuditEntry[]>('/api/admin/farm', 'FARM_AUDIT_LIST');
    expect(entry).toMatchObject({ by: { email: 'installer@vatman.local' }, action: 'PARTICLE_CONFIG', target: '31245', before: `${before}, low connectivity off`, after: 'Vat-Man Auto, low connectivity on' });
  });
});

describe("Watchman's settings on its Activity (SAVE_SETTINGS)", () => {
  it('lists each save with what it changed', async () => {
    const form = Object.fromEntries(Object.entries({ ...WATCHMAN_DEFAULTS, calibration_days: 45 }).map(([k, v]) => [camelOf(k), String(v)]));
    expect(await ok('/api/watchman', 'SAVE_SETTINGS', form, installer)).toBe('success');
    const { settings_changes } = await ok<{ settings_changes: AuditEntry[] }>('/api/watchman', 'GET_ACTIVITY_SUMMARY', {}, installer);
    expect(settings_changes[0]).toMatchObject({ by: { email: 'installer@vatman.local' }, action: 'SAVE_SETTINGS', target: 'Watchman settings', before: 'Calibration days: 30', after: 'Calibration days: 45' });
    const { settings } = await ok<{ settings: { calibration_days: number } }>('/api/watchman', 'GET_SETTINGS');
    expect(settings.calibration_days).toBe(45);
  });
});
