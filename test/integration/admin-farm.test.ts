import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import { adminFarmContracts as c, MILKING_WINDOW_HEADER, type AdminFarm, type FarmSettingsRow } from '../../shared/api/actions/admin-farm';
import { adminUserContracts } from '../../shared/api/actions/admin-user';
import type { AuditEntry } from '../../shared/entities/audit';
import { decodeJwt } from '../support/jwt';
import { startTestStack } from '../support/local-stack';

/**
 * /api/admin/farm through the local stack (operator §2 Admin farms, §3, §6, §7, §9):
 * the dairy filter and supply search, the flags limited to the configured user ids, the settings
 * table and the billing CSV.
 */
let stack: Awaited<ReturnType<typeof startTestStack>>;
const tokens: Record<string, string> = {};
const ADMIN = 'admin@vatman.local';
const INSTALLER = 'installer@vatman.local';

type FarmList = { listFarm: AdminFarm[]; listDevice: { farm_id: string }[]; flags_editable: boolean };
const call = (type: keyof typeof c, fields: Record<string, string>, email = ADMIN) => stack.post(c[type].path, { type, ...fields }, tokens[email]);
const ok = async <T,>(type: keyof typeof c, fields: Record<string, string> = {}, email = ADMIN) => {
  const res = await call(type, fields, email);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as T;
};
const supplies = async (fields: Record<string, string>) => (await ok<FarmList>('FARM_LIST', fields)).listFarm.map((f) => f.fonterra_id);

beforeAll(async () => {
  stack = await startTestStack();
  for (const email of [ADMIN, INSTALLER, 'farmer@vatman.local', 'newfarmer@vatman.local']) tokens[email] = await stack.signIn(email);
}, 180_000);
afterAll(async () => stack?.stop());

describe('who may call it', () => {
  it('refuses every type to a farmer, an installer and a stranger (no token)', async () => {
    const fields: Record<keyof typeof c, Record<string, string>> = {
      FARM_LIST: {},
      FARM_AUTO_CHECK_STATUS: { _id: 'farm-pro', auto_check: 'false' },
      FARM_FONTERRA_API_STATUS: { _id: 'farm-pro', fonterra_api_status: 'true' },
      FARM_HARVEST_API_STATUS: { _id: 'farm-pro', harvest: 'true' },
      FARMS_SETTINGS_GET: {},
      FARM_BILLING_OUTPUT: { month: '2026-06' },
      FARM_AUDIT_LIST: {},
      FARM_DELIVERY_DEAD_LETTERS: {},
      FARMS_SETTINGS_UPLOAD: { farms_settings: JSON.stringify({ filename: 'w.csv', content: 'supply_number,buffer_duration,end_of_milking\n31245,10,07:00' }) },
    };
    for (const type of Object.keys(c) as (keyof typeof c)[]) {
      expect((await call(type, fields[type], 'farmer@vatman.local')).status, `${type} as farmer`).toBe(403);
      expect((await call(type, fields[type], 'newfarmer@vatman.local')).status, `${type} as a user with no farm`).toBe(403);
      expect((await call(type, fields[type], INSTALLER)).status, `${type} as installer`).toBe(403);
      expect((await stack.post(c[type].path, { type, ...fields[type] })).status, `${type} without a token`).toBe(401);
    }
    expect((await ok<FarmList>('FARM_LIST')).listFarm.find((f) => f._id === 'farm-pro')).toMatchObject({ auto_check: true, fonterra_api_status: false, harvest: false });
  });
});

describe('the farm list', () => {
  it('answers the admin card fields of every farm, with its devices', async () => {
    const body = await ok<FarmList>('FARM_LIST', { dairy_current: 'ALL' });
    expect(body.flags_editable).toBe(true);
    expect(body.listFarm.map((f) => f.fonterra_id)).toEqual(['31245', 'FON50412', 'OCD40721', 'WES118']);
    const pro = body.listFarm.find((f) => f._id === 'farm-pro');
    expect(pro).toMatchObject({ supplier: 'FON', package: 'Vat-Man Pro', install_packege: 'Vat-Man Pro', install_numVats: 2, install_date: '2025-11-18', auto_check: true });
    expect(pro?.devices.map((d) => d.vat_number)).toEqual([1, 2]);
    expect(Object.keys(pro ?? {}).sort()).toEqual(['_id', 'auto_check', 'supplier', 'devices', 'fonterra_api_status', 'fonterra_id', 'harvest', 'install_date', 'install_numVats', 'install_packege', 'name', 'package'].sort());
    expect(new Set(body.listDevice.map((d) => d.farm_id))).toEqual(new Set(['farm-lite', 'farm-pro', 'farm-auto', 'farm-wes']));
  });

  it('filters by dairy (FON is 5 digits or FON…) and searches the supply number', async () => {
    expect(await supplies({ dairy_current: 'FON' })).toEqual(['31245', 'FON50412']);
    expect(await supplies({ dairy_current: 'NONE-FON' })).toEqual(['OCD40721', 'WES118']);
    expect(await supplies({ dairy_current: 'OCD' })).toEqual(['OCD40721']);
    expect(await supplies({ dairy_current: 'WES' })).toEqual(['WES118']);
    expect(await supplies({ dairy_current: 'SYN' })).toEqual([]);
    expect(await supplies({ dairy_current: 'ALL', farm_id: 'fon5' })).toEqual(['FON50412']);
    expect(await supplies({ dairy_current: 'NONE-FON', farm_id: '118' })).toEqual(['WES118']);
    expect((await call('FARM_LIST', { dairy_current: 'XYZ' })).status).toBe(422);
  });

  it('operator A18: a blank value for every farm filter means all', async () => {
    const all = ['31245', 'FON50412', 'OCD40721', 'WES118'];
    expect(await supplies({})).toEqual(all);
    expect(await supplies({ dairy_current: '', farm_type: '', farm_id: '', farm_finance: '' })).toEqual(all);
    expect(await supplies({ dairy_current: ' ', farm_type: ' ', farm_id: ' ', farm_finance: ' ' })).toEqual(all);
    for (const field of ['dairy_current', 'farm_type', 'farm_finance']) expect(await supplies({ [field]: '' }), field).toEqual(all);
    // The other farm calls carry the same filters (operator §7): blank is accepted there too.
    expect((await call('FARMS_SETTINGS_GET', { dairy_current: '', farm_type: '', farm_id: '', farm_finance: '' })).status).toBe(200);
  });

  it('operator A18: filters by package (farm_type) and by the finance package of the farm\'s organization (farm_finance)', async () => {
    expect(await supplies({ farm_type: 'Vat-Man Pro' })).toEqual(['31245']);
    expect(await supplies({ farm_type: 'ALL' })).toHaveLength(4);
    // The demo group (Vat-Man Pro) holds the Pro and Auto farms; no organization is on Vat-Man Lite.
    expect(await supplies({ farm_finance: 'Vat-Man Pro' })).toEqual(['31245', 'FON50412']);
    expect(await supplies({ farm_finance: 'Vat-Man Lite' })).toEqual([]);
    expect(await supplies({ farm_finance: 'Vat-Man Pro', farm_type: 'Vat-Man Auto' })).toEqual(['FON50412']);
    const bad = await call('FARM_LIST', { farm_type: 'Gold' });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('farm_type must be blank, ALL, Vat-Man Lite, Vat-Man Pro, Vat-Man Auto');
    expect((await call('FARM_LIST', { farm_finance: 'Gold' })).status).toBe(422);
  });
});

describe('the flags', () => {
  it('sets Watch, API status and Harvest for one farm, keeps them, and records each change', async () => {
    expect(await ok<AdminFarm>('FARM_AUTO_CHECK_STATUS', { _id: 'farm-pro', auto_check: 'false' })).toMatchObject({ _id: 'farm-pro', auto_check: false });
    expect(await ok<AdminFarm>('FARM_FONTERRA_API_STATUS', { _id: 'farm-pro', fonterra_api_status: 'true' })).toMatchObject({ fonterra_api_status: true });
    expect(await ok<AdminFarm>('FARM_HARVEST_API_STATUS', { _id: 'farm-pro', harvest: '1' })).toMatchObject({ harvest: true });
    const pro = (await ok<FarmList>('FARM_LIST')).listFarm.find((f) => f._id === 'farm-pro');
    expect(pro).toMatchObject({ auto_check: false, fonterra_api_status: true, harvest: true });
    // The others are untouched.
    expect((await ok<FarmList>('FARM_LIST')).listFarm.find((f) => f._id === 'farm-auto')).toMatchObject({ auto_check: true, fonterra_api_status: false, harvest: false });

    const audit = await ok<AuditEntry[]>('FARM_AUDIT_LIST');
    expect(audit.slice(0, 3).map((e) => [e.action, e.target, e.before, e.after, e.by.email])).toEqual([
      ['FARM_HARVEST_API_STATUS', '31245', 'Harvest off', 'Harvest on', ADMIN],
      ['FARM_FONTERRA_API_STATUS', '31245', 'API status off', 'API status on', ADMIN],
      ['FARM_AUTO_CHECK_STATUS', '31245', 'Watch on', 'Watch off', ADMIN],
    ]);
    for (const [type, field] of [['FARM_AUTO_CHECK_STATUS', 'auto_check'], ['FARM_FONTERRA_API_STATUS', 'fonterra_api_status'], ['FARM_HARVEST_API_STATUS', 'harvest']] as const) {
      await ok(type, { _id: 'farm-pro', [field]: field === 'auto_check' ? 'true' : 'false' });
    }
  });

  it("holds the dairy-company sync off against Watchman when an operator turns it off, until one turns it on", async () => {
    const farms = dynamoFarmRepository(createDocumentClient(), stack.facts.dynamodb.farmsTable);
    await ok('FARM_FONTERRA_API_STATUS', { _id: 'farm-pro', fonterra_api_status: 'false' });
    expect(await farms.getFarm('farm-pro')).toMatchObject({ fonterra_api_status: false, fonterra_sync_held: true });
    await ok('FARM_FONTERRA_API_STATUS', { _id: 'farm-pro', fonterra_api_status: 'true' });
    expect(await farms.getFarm('farm-pro')).toMatchObject({ fonterra_api_status: true, fonterra_sync_held: false });
    // Watchman's own switch (no operator) leaves the hold as it is.
    await farms.setFarmFlag('farm-pro', 'fonterra_api_status', false);
    expect(await farms.getFarm('farm-pro')).toMatchObject({ fonterra_api_status: false, fonterra_sync_held: false });
  });

  it('refuses an unknown farm and a value that is not a boolean', async () => {
    expect(await call('FARM_AUTO_CHECK_STATUS', { _id: 'no-such-farm', auto_check: 'true' })).toEqual({ status: 422, body: { message: 'No such farm.' } });
    expect((await call('FARM_HARVEST_API_STATUS', { _id: 'farm-pro', harvest: 'maybe' })).status).toBe(422);
  });

  it('limits them to the configured user ids: another Admin lists farms but cannot set a flag', async () => {
    const installerId = String(decodeJwt(tokens[INSTALLER] as string).sub);
    const promote = (role: string) => stack.post(adminUserContracts.USER_ROLE_EDIT.path, { type: 'USER_ROLE_EDIT', userid: installerId, role }, tokens[ADMIN]);
    expect((await promote('Admin')).status).toBe(200);
    tokens[INSTALLER] = await stack.signIn(INSTALLER);
    try {
      expect((await ok<FarmList>('FARM_LIST', {}, INSTALLER)).flags_editable).toBe(false);
      expect(await call('FARM_AUTO_CHECK_STATUS', { _id: 'farm-pro', auto_check: 'false' }, INSTALLER)).toEqual({ status: 403, body: { message: 'Forbidden' } });
      expect((await ok<FarmList>('FARM_LIST')).listFarm.find((f) => f._id === 'farm-pro')?.auto_check).toBe(true);
    } finally {
      expect((await promote('Installer')).status).toBe(200);
      tokens[INSTALLER] = await stack.signIn(INSTALLER);
    }
  });
});

describe('settings and billing', () => {
  it('lists the milking windows by farm', async () => {
    const rows = await ok<FarmSettingsRow[]>('FARMS_SETTINGS_GET');
    expect(rows.map((r) => [r.farm, r.buffer_duration, r.end_of_milking])).toEqual([
      ['31245', 30, '08:30'],
      ['FON50412', 45, '09:00'],
    ]);
  });

  it("exports a month's billing codes per farm, with the install code in the install month", async () => {
    const june = await ok<{ filename: string; csv: string }>('FARM_BILLING_OUTPUT', { month: '2026-06' });
    expect(june.filename).toBe('billing-2026-06.csv');
    expect(june.csv.trim().split('\r\n')).toEqual([
      'month,supply_number,farm,supplier,package,code,quantity,sms_sent,sms_total',
      '2026-06,31245,Totara Downs,FON,Vat-Man Pro,DTSVMPRO,1,0,120',
      '2026-06,FON50412,Rimu Valley,FON,Vat-Man Auto,DTSVMAUTO,1,0,120',
      '2026-06,FON50412,Rimu Valley,FON,Vat-Man Auto,DTSVMAUTOINST,1,,',
      '2026-06,OCD40721,Kowhai Flats,OCD,Vat-Man Lite,DTSVMLITE,1,0,60',
      '2026-06,WES118,Matai Road,WES,Vat-Man Lite,DTSVMLITE,1,0,60',
    ]);
    const feb = await ok<{ csv: string }>('FARM_BILLING_OUTPUT', { month: '2026-02' });
    expect(feb.csv.trim().split('\r\n').slice(1).map((l) => l.split(',')[5])).toEqual(['DTSVMPRO']);
    expect((await call('FARM_BILLING_OUTPUT', { month: '2026-13' })).status).toBe(422);
  });
});

describe('the milking-window import (multipart)', () => {
  const HEADER = MILKING_WINDOW_HEADER.join(',');
  /** Posts a CSV file as the page does: multipart/form-data with the file in `farms_settings`. */
  const upload = async (content: string | Buffer, filename = 'windows.csv', email = ADMIN) => {
    const form = new FormData();
    form.set('type', 'FARMS_SETTINGS_UPLOAD');
    form.set('dairy_current', 'ALL');
    form.set('farms_settings', new Blob([content], { type: 'text/csv' }), filename);
    const res = await fetch(`${stack.facts.api}${c.FARMS_SETTINGS_UPLOAD.path}`, { method: 'POST', headers: { authorization: `Bearer ${tokens[email]}` }, body: form });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  };
  const windows = async () => (await ok<FarmSettingsRow[]>('FARMS_SETTINGS_GET')).map((r) => `${r.farm} ${r.buffer_duration} ${r.end_of_milking}`);

  it('checks every row first: bad rows are a 422 naming each row, and nothing is stored', async () => {
    const before = await windows();
    const res = await upload(`${HEADER}\r\nOCD40721,20,07:15\r\n31245,abc,08:00\r\nnope1,10,25:00\r\nocd40721,5,06:00\r\n`);
    expect(res).toEqual({
      status: 422,
      body: {
        message: [
          'Row 3: buffer_duration must be whole minutes from 0 to 720',
          'Row 4: end_of_milking must be a time of day as HH:mm (24-hour)',
          'Row 5: supply number OCD40721 is also on row 2',
        ],
      },
    });
    // Well-formed but unknown to the fleet: also refused, also nothing stored.
    expect(await upload(`${HEADER}\nOCD40721,20,07:15\nXYZ999,10,06:00\n`)).toEqual({ status: 422, body: { message: 'Row 3: no farm has supply number XYZ999' } });
    expect(await upload('farm,buffer,end\n31245,1,02:00\n')).toEqual({ status: 422, body: { message: `The first line must be: ${HEADER}` } });
    expect(await upload(`${HEADER}\n\n`)).toEqual({ status: 422, body: { message: 'The file has no rows.' } });
    expect(await windows()).toEqual(before);
  });

  it('refuses a file over 1 MB', async () => {
    const big = `${HEADER}\n${'31245,30,08:30\n'.repeat(Math.ceil((1024 * 1024) / 15) + 10)}`;
    expect(await upload(big)).toEqual({ status: 422, body: { message: 'The file may be at most 1 MB.' } });
  });

  it('imports a good file: Success!, the settings table has the new windows, and the import is recorded', async () => {
    const res = await upload(`\uFEFF${HEADER}\r\nOCD40721,20,7:15\r\n31245,35,08:45\r\n`, 'november.csv');
    expect(res).toEqual({ status: 200, body: { message: 'Success!', imported: 2 } });
    expect(await windows()).toEqual(['31245 35 08:45', 'FON50412 45 09:00', 'OCD40721 20 07:15']);
    const [entry] = await ok<AuditEntry[]>('FARM_AUDIT_LIST');
    expect(entry).toMatchObject({ action: 'FARMS_SETTINGS_UPLOAD', target: 'november.csv (2 rows)', before: 'OCD40721 none; 31245 30 min, 08:30', after: 'OCD40721 20 min, 07:15; 31245 35 min, 08:45' });
  });

  it('refuses the upload to an installer', async () => {
    expect((await upload(`${HEADER}\n31245,1,01:00\n`, 'x.csv', INSTALLER)).status).toBe(403);
  });
});
