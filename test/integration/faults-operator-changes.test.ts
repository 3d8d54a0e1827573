import { CreateThingCommand, IoTClient } from '@aws-sdk/client-iot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import { dynamoMilkingWindowsRepository } from '../../lambdas/adapters/dynamodb/milking-windows-repository';
import { DEMO_UNIT_IMEIS } from '../../local/seed/demo-data';
import { unitThingName } from '../../shared/entities/install';
import { camelOf } from '../../shared/watchman/settings';
import { startTestStack } from '../support/local-stack';

/*
 * An operator change and its audit entry are one transaction (decision 050): when the entry's
 * write fails (the stand-in refuses every write under AUDIT#), the change is not made either.
 * Each case: the call fails with a 500, and what it would have changed is as it was.
 */
let stack: Awaited<ReturnType<typeof startTestStack>>;
let admin: string;
let installer: string;
const farmRepo = () => dynamoFarmRepository(createDocumentClient(), process.env.FARMS_TABLE as string);

beforeAll(async () => {
  stack = await startTestStack(undefined, undefined, { dairySync: false, watchman: false });
  [admin, installer] = await Promise.all([stack.signIn('admin@vatman.local'), stack.signIn('installer@vatman.local')]);
}, 180_000);
afterAll(async () => {
  await stack?.dynamoFaults.failWritesTo([]);
  await stack?.stop();
});

/** Runs the call while the audit entries' writes fail: it must fail, then `unchanged` must hold. */
const refusedWithoutAudit = async (path: string, fields: Record<string, string>, token: string, unchanged: () => Promise<void>) => {
  await stack.dynamoFaults.failWritesTo(['AUDIT#']);
  try {
    const res = await stack.post(path, fields, token);
    expect(res.status, JSON.stringify(res.body)).toBe(500);
  } finally {
    await stack.dynamoFaults.failWritesTo([]);
  }
  await unchanged();
};

describe('operator change faults', () => {
  it('a farm flag is not set', async () => {
    const before = await farmRepo().getFarm('farm-pro');
    await refusedWithoutAudit('/api/admin/farm', { type: 'FARM_HARVEST_API_STATUS', _id: 'farm-pro', harvest: String(!before?.harvest) }, admin, async () => {
      expect((await farmRepo().getFarm('farm-pro'))?.harvest).toBe(before?.harvest);
    });
    const api = before?.fonterra_api_status;
    await refusedWithoutAudit('/api/admin/farm', { type: 'FARM_FONTERRA_API_STATUS', _id: 'farm-pro', fonterra_api_status: String(!api) }, admin, async () => {
      const after = await farmRepo().getFarm('farm-pro');
      expect(after?.fonterra_api_status).toBe(api);
      expect(after?.fonterra_sync_held).toBe(before?.fonterra_sync_held);
    });
  });

  it('a milking-window import stores no window', async () => {
    const windows = dynamoMilkingWindowsRepository(createDocumentClient(), process.env.FARMS_TABLE as string);
    const before = await windows.list(['farm-pro']);
    const file = JSON.stringify({ filename: 'w.csv', content: 'supply_number,buffer_duration,end_of_milking\n31245,17,06:43' });
    await refusedWithoutAudit('/api/admin/farm', { type: 'FARMS_SETTINGS_UPLOAD', farms_settings: file }, admin, async () => {
      expect(await windows.list(['farm-pro'])).toEqual(before);
    });
  });

  it("a user's herd flag and role are not changed", async () => {
    const user = await farmRepo().findUserByEmail('newfarmer@vatman.local');
    if (!user) throw new Error('no demo user');
    await refusedWithoutAudit('/api/admin/user', { type: 'USER_HERD_EDIT', userid: user._id, is_herd_enabled: String(1 - user.is_herd_enabled) }, admin, async () => {
      expect((await farmRepo().getUser(user._id))?.is_herd_enabled).toBe(user.is_herd_enabled);
    });
    const roleOf = async () => ((await stack.post('/api/admin/user', { type: 'USER_LIST' }, admin)).body as { _id: string; role: string }[]).find((u) => u._id === user._id)?.role;
    expect(await roleOf()).toBe('User');
    await refusedWithoutAudit('/api/admin/user', { type: 'USER_ROLE_EDIT', userid: user._id, role: 'Installer' }, admin, async () => {
      expect(await roleOf()).toBe('User');
    });
  });

  it('a device is neither retired nor renamed, and its vat settings stay', async () => {
    await refusedWithoutAudit('/api/admin/device', { type: 'DEVICE_EDIT', device_id: 'dev-31245-1', status: '2' }, admin, async () => {
      expect((await farmRepo().getDevice('dev-31245-1'))?.status).toBe(1);
    });
    const before = await farmRepo().getDevice('dev-31245-1');
    const settings = { type: 'VAT_SETTINGS', supplyNumber: '31245', vatNumber: '1', vatSize: '19999', height: '2999', diameter: '3111', wedgeHeight: '11', volumeOffset: '3' };
    await refusedWithoutAudit('/api/installer', settings, admin, async () => {
      expect(await farmRepo().getDevice('dev-31245-1')).toMatchObject({ vat_size: before?.vat_size, vat_max_height: before?.vat_max_height, vat_diameter: before?.vat_diameter });
    });
    await farmRepo().putDevice({ _id: 'dev-fault-9', name: 'vm-fault-9', farm_id: 'farm-lite', vat_number: 4, status: 1, vat_size: 10_000, vat_max_height: 2000, vat_diameter: 2500, wedgeHeight: 0, vat_volume_offset: 0, vat_auto: false });
    const iot = new IoTClient({ endpoint: stack.iot.endpoint, region: 'us-east-1' });
    await iot.send(new CreateThingCommand({ thingName: 'vm-fault-9-renamed', attributePayload: { attributes: { device_id: 'dev-fault-9' } } }));
    await refusedWithoutAudit('/api/admin/device', { type: 'DEVICE_LOAD_NAME' }, admin, async () => {
      expect((await farmRepo().getDevice('dev-fault-9'))?.name).toBe('vm-fault-9');
    });
  });

  it("a farm's package is not changed, nor its unit's thing", async () => {
    const imei = DEMO_UNIT_IMEIS['farm-auto'] as string;
    const farm = await farmRepo().getFarm('farm-auto');
    const thing = stack.iot.thing(unitThingName(imei))?.attributes;
    const fields = { type: 'PARTICLE_CONFIG', key: 'farm', particleID: unitThingName(imei), imei, farmID: 'farm-auto', supplyNumber: farm?.fonterra_id ?? '', productVariant: 'Vat-Man Lite', lowConnectivity: 'false' };
    await refusedWithoutAudit('/api/installer', fields, installer, async () => {
      expect((await farmRepo().getFarm('farm-auto'))?.package).toBe(farm?.package);
      expect(stack.iot.thing(unitThingName(imei))?.attributes).toEqual(thing);
    });
  });

  it("Watchman's settings are not saved", async () => {
    const before = (await stack.post('/api/watchman', { type: 'GET_SETTINGS' }, admin)).body as { settings: Record<string, unknown> };
    const form = Object.fromEntries(Object.entries({ ...before.settings, calibration_days: 77 }).map(([k, v]) => [camelOf(k), String(v)]));
    await refusedWithoutAudit('/api/watchman', { type: 'SAVE_SETTINGS', ...form }, admin, async () => {
      expect(((await stack.post('/api/watchman', { type: 'GET_SETTINGS' }, admin)).body as typeof before).settings).toEqual(before.settings);
    });
  });
});
