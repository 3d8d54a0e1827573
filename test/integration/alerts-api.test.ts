import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoAlertsRepository } from '../../lambdas/adapters/dynamodb/alerts-repository';
import type { AlertsRepository } from '../../lambdas/ports/alerts';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import { PREFERENCE_KEYS } from '../../shared/alerts/preferences';
import { DEFAULT_ALERT_SETTINGS } from '../../shared/alerts/settings';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ARCHIVED_NOTIFICATION_RETENTION_DAYS, type Notification } from '../../shared/alerts/types';
import {
  notificationDetailAnswerSchema,
  notificationEditAnswerSchema,
  notificationListAnswerSchema,
  notificationStatusAnswerSchema,
  NOTIFICATION_PAGE_SIZE,
} from '../../shared/api/actions/farmer-notification';
import {
  alertSettingsAnswerSchema,
  alertSettingsSetAnswerSchema,
  preferencesAnswerSchema,
  preferencesSetAnswerSchema,
} from '../../shared/api/actions/farmer-setting';
import { startTestStack } from '../support/local-stack';

/** The alerts API: notifications and alert settings through the local gateway, with the real SDK. */
let stack: Awaited<ReturnType<typeof startTestStack>>;
let alerts: AlertsRepository;
let farmer: string;
let west: string;

beforeAll(async () => {
  stack = await startTestStack();
  alerts = dynamoAlertsRepository(createDocumentClient(), stack.facts.dynamodb.alertsTable);
  [farmer, west] = await Promise.all([stack.signIn('farmer@vatman.local'), stack.signIn('westfarmer@vatman.local')]);
});
afterAll(async () => {
  await stack?.stop();
});

const notification = (o: Partial<Notification> & Pick<Notification, '_id' | 'type'>): Notification => ({
  farm_id: 'farm-pro',
  status: 1,
  data: { published_at: '2026-11-20T01:00:00.000Z', temp1: 8.4, milk_volume: 4000, agitator_status: 1 },
  device: { _id: 'dev-31245-1', name: 'vm-31245-1', vat_number: 1 },
  created_at: '2026-11-20T01:00:05.000Z',
  ...o,
});

const notif = (type: string, fields: Record<string, string>, token = farmer) => stack.post('/api/farmer/notification', { type, farm: 'farm-pro', ...fields }, token);
const setting = (type: string, fields: Record<string, string>, token = farmer, farm = 'farm-pro') => stack.post('/api/farmer/setting', { type, farm, ...fields }, token);

describe('notifications (farmer §2.8)', () => {
  beforeAll(async () => {
    await alerts.raise(notification({ _id: 'a-102', type: 102 }), true);
    await alerts.raise(notification({ _id: 'a-301', type: 301, data: { published_at: '2026-11-20T02:00:00.000Z', temp1: 4, milk_volume: 4100, agitator_status: 0 } }), true);
    await alerts.raise(notification({ _id: 'a-hidden', type: 501, message_type: 'System Status' }), false);
  });

  it('lists the farm’s notifications, hidden message types left out, newest first', async () => {
    const res = await notif('FARMER_NOTIFICATION_LIST', {});
    expect(res.status).toBe(200);
    const list = res.body as Notification[];
    expect(list.map((n) => n._id)).toEqual(['a-301', 'a-102']);
    expect(list[1]).toMatchObject({ type: 102, status: 1, data: { temp1: 8.4, milk_volume: 4000, agitator_status: 1 }, device: { vat_number: 1 } });
    expect(list[1]).not.toHaveProperty('delivered');
  });

  it('pages the list (no answer near Lambda\'s 6 MB): NOTIFICATION_PAGE_SIZE a call, the next page after the last `_id` given as cursor, hidden types never counted', async () => {
    const total = 2 * NOTIFICATION_PAGE_SIZE + 5;
    for (let i = 0; i < total; i += 1) {
      const id = `p-${String(i).padStart(4, '0')}`;
      await alerts.raise(notification({ _id: id, type: 102, farm_id: 'farm-lite', device: { _id: 'dev-40721-1', name: 'vm-40721-1', vat_number: 1 } }), false);
      // A hidden one between every few: a page is still full of visible ones.
      if (i % 3 === 0) await alerts.raise(notification({ _id: `${id}-h`, type: 501, message_type: 'System Status', farm_id: 'farm-lite' }), false);
    }
    const pages: string[][] = [];
    let cursor = '';
    do {
      const res = await stack.post('/api/farmer/notification', { type: 'FARMER_NOTIFICATION_LIST', farm: 'farm-lite', ...(cursor ? { cursor } : {}) }, farmer);
      expect(res.status).toBe(200);
      const ids = (res.body as Notification[]).map((n) => n._id);
      pages.push(ids);
      cursor = ids.length === NOTIFICATION_PAGE_SIZE ? (ids.at(-1) ?? '') : '';
    } while (cursor);
    expect(pages.map((p) => p.length)).toEqual([NOTIFICATION_PAGE_SIZE, NOTIFICATION_PAGE_SIZE, 5]);
    const all = pages.flat();
    expect(all).toEqual(Array.from({ length: total }, (_, i) => `p-${String(total - 1 - i).padStart(4, '0')}`));
    // A cursor is only a position in the caller's own farm: another farm's farmer still gets 403.
    expect((await stack.post('/api/farmer/notification', { type: 'FARMER_NOTIFICATION_LIST', farm: 'farm-lite', cursor: 'p-0100' }, west)).status).toBe(403);
  }, 120_000);

  it('status YES while one is unread; opening marks read, archive sets 3 and opening it again leaves it archived', async () => {
    expect((await notif('FARMER_NOTIFICATION_STATUS', {})).body).toBe('YES');
    const read = await notif('FARMER_NOTIFICATION_ONE_EDIT', { item: JSON.stringify({ _id: 'a-102' }), status: '2' });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ item: { _id: 'a-102', status: 2 }, unread: 1 });
    const archived = await notif('FARMER_NOTIFICATION_ONE_EDIT', { item: JSON.stringify({ _id: 'a-301' }), status: '3' });
    expect(archived.body).toMatchObject({ item: { status: 3 }, unread: 0 });
    const reopened = await notif('FARMER_NOTIFICATION_ONE_EDIT', { item: JSON.stringify({ _id: 'a-301' }), status: '2' });
    expect(reopened.body).toMatchObject({ item: { status: 3 } });
    // Archived, it expires ARCHIVED_NOTIFICATION_RETENTION_DAYS later (the table's TTL); a read one does not.
    const item = async (id: string) =>
      (await createDocumentClient().send(new GetCommand({ TableName: stack.facts.dynamodb.alertsTable, Key: { pk: 'FARM#farm-pro', sk: `N#${id}` } }))).Item;
    const expiresAt = Number((await item('a-301'))?.expires_at);
    expect(Math.abs(expiresAt - (Date.now() / 1000 + ARCHIVED_NOTIFICATION_RETENTION_DAYS * 86_400))).toBeLessThan(120);
    expect((await item('a-102'))?.expires_at).toBeUndefined();
    expect(archived.body).not.toHaveProperty('item.expires_at');
    expect((await notif('FARMER_NOTIFICATION_STATUS', {})).body).toBe('NO');
  });

  it('detail without a storage record answers the spec’s message', async () => {
    const res = await notif('FARMER_NOTIFICATION_DETAIL', { item: JSON.stringify({ _id: 'a-102' }) });
    expect(res).toMatchObject({ status: 200, body: { _id: null, message: 'No detail, please contact customer support!' } });
  });

  it('detail answers the storage activity that held the milk when the alert was raised', async () => {
    const readings = dynamoReadingsRepository(createDocumentClient(), stack.facts.dynamodb.readingsTable);
    const point = (published_at: string) => ({ published_at, milk_volume: 3000, temp1: 9, temp2: 12, temp3: 14 });
    await readings.putActivity({ kind: 'storage', start: point('2026-11-19T20:00:00.000Z'), end: point('2026-11-20T05:00:00.000Z'), device_id: 'dev-31245-1', farm_id: 'farm-pro' }, 1);
    const res = await notif('FARMER_NOTIFICATION_DETAIL', { item: JSON.stringify({ _id: 'a-301' }) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: 'dev-31245-1~storage~2026-11-19T20:00:00.000Z', alert_id: 'a-301', activity: { kind: 'storage' }, device: { vat_number: 1 } });
  });

  it('another farm’s farmer can neither read nor change them (403)', async () => {
    for (const [type, fields] of [
      ['FARMER_NOTIFICATION_LIST', {}],
      ['FARMER_NOTIFICATION_STATUS', {}],
      ['FARMER_NOTIFICATION_ONE_EDIT', { item: JSON.stringify({ _id: 'a-102' }), status: '3' }],
      ['FARMER_NOTIFICATION_DETAIL', { item: JSON.stringify({ _id: 'a-102' }) }],
    ] as const) {
      expect((await notif(type, fields, west)).status, type).toBe(403);
    }
    // Its own farm with the other farm's alert id: not found there, so 403 too.
    const res = await stack.post('/api/farmer/notification', { type: 'FARMER_NOTIFICATION_ONE_EDIT', farm: 'farm-wes', item: JSON.stringify({ _id: 'a-102' }), status: '3' }, west);
    expect(res.status).toBe(403);
    expect((await alerts.get('farm-pro', 'a-102'))?.status).toBe(2);
  });

  it('a bad status is a 422', async () => {
    expect((await notif('FARMER_NOTIFICATION_ONE_EDIT', { item: JSON.stringify({ _id: 'a-102' }), status: '7' })).status).toBe(422);
  });
});

describe('alert settings (farmer §2.9, §5)', () => {
  it('answers the §9 defaults until the farmer saves', async () => {
    const res = await setting('USER_SETTING_ALERT_GET', {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ farm: { _id: 'farm-pro', package: 'Vat-Man Pro', alert_setting: DEFAULT_ALERT_SETTINGS } });
    expect((res.body as { vats: { auto_settings: { pro_refrige_temp_on: number } }[] }).vats[0]?.auto_settings.pro_refrige_temp_on).toBe(5);
  });

  it('saves good values (too cold stored with one decimal)', async () => {
    const res = await setting('USER_SETTING_ALERT_SET', { alert_setting: JSON.stringify({ ...DEFAULT_ALERT_SETTINGS, milk_warm_plate: '20', milk_cold: '1.50', milk_volume: 85 }) });
    expect(res.status).toBe(200);
    const got = await setting('USER_SETTING_ALERT_GET', {});
    expect((got.body as { farm: { alert_setting: unknown } }).farm.alert_setting).toEqual({ ...DEFAULT_ALERT_SETTINGS, milk_warm_plate: 20, milk_cold: 1.5, milk_volume: 85 });
  });

  it.each([
    [{ milk_warm_plate: 31 }, 'Too warm input verification failed!'],
    [{ milk_warm_plate: '18.5' }, 'Too warm input verification failed!'],
    [{ milk_volume: 120 }, 'Volume level input verification failed!'],
    [{ milk_volume: -1 }, 'Volume level input verification failed!'],
    [{ milk_cold: '2.25' }, 'Too cold input verification failed!'],
    [{ milk_cold: 9 }, 'Too cold input verification failed!'],
    [{ milk_slow_temp: 12 }, 'Slow to cool temperature input verification failed!'],
    [{ milk_slow_peroid: 10 }, 'Slow to cool period input verification failed!'],
    [{ milk_duration: 90 }, 'Milking duration input verification failed!'],
    [{ collection_duration: 5 }, 'Collection duration input verification failed!'],
    [{ pick_up_alert: 45 }, 'Pick up alert input verification failed!'],
  ])('%o straight to the API: 422 with the message, nothing stored', async (bad, message) => {
    const before = (await setting('USER_SETTING_ALERT_GET', {})).body;
    const res = await setting('USER_SETTING_ALERT_SET', { alert_setting: JSON.stringify({ ...DEFAULT_ALERT_SETTINGS, milk_volume: 90, ...bad }) });
    expect(res).toEqual({ status: 422, body: { message } });
    expect((await setting('USER_SETTING_ALERT_GET', {})).body).toEqual(before);
  });

  it('controller settings are for Vat-Man Auto only, and checked before anything is sent', async () => {
    const pro = await setting('USER_SETTING_ALERT_SET_AUTO', { vat: JSON.stringify({ _id: 'dev-31245-1', pro_refrige_temp_on: 5 }) });
    expect(pro.status).toBe(403);
    const bad = await setting('USER_SETTING_ALERT_SET_AUTO', { vat: JSON.stringify({ _id: 'dev-fon50412-1', pro_refrige_level_on_basepad: 6000 }) }, farmer, 'farm-auto');
    expect(bad).toEqual({ status: 422, body: { message: 'Basepad level input verification failed!' } });
  });

  it('another farm’s farmer gets 403 and changes nothing', async () => {
    expect((await setting('USER_SETTING_ALERT_GET', {}, west)).status).toBe(403);
    const res = await setting('USER_SETTING_ALERT_SET', { alert_setting: JSON.stringify({ milk_volume: 60 }) }, west);
    expect(res.status).toBe(403);
    const got = await setting('USER_SETTING_ALERT_GET', {});
    expect((got.body as { farm: { alert_setting: { milk_volume: number } } }).farm.alert_setting.milk_volume).toBe(85);
  });
});

describe('notification preferences (farmer §2.11)', () => {
  it('all on by default, with the texts sent this month beside the allowance', async () => {
    const res = await setting('USER_SETTING_ALERT_GET_USER', {});
    expect(res.status).toBe(200);
    const body = res.body as { alert_setting: Record<string, { email: boolean; text: boolean }>; sms: { sent: number; total: number } };
    // The spec's 19 rows and the ones added since ('Cooling at risk').
    expect(Object.keys(body.alert_setting).sort()).toEqual([...PREFERENCE_KEYS].sort());
    expect(body.alert_setting.milk_warm).toEqual({ email: true, text: true });
    expect(body.alert_setting.cooling_at_risk).toEqual({ email: true, text: true });
    expect(body.sms).toEqual({ sent: 0, total: 120 });
  });

  it('saves a row and refuses an unknown one', async () => {
    const ok = await setting('USER_SETTING_ALERT_SET_USER', { alert_setting: JSON.stringify({ power_outage: { email: true, text: false } }) });
    expect(ok.status).toBe(200);
    const got = await setting('USER_SETTING_ALERT_GET_USER', {});
    expect((got.body as { alert_setting: Record<string, unknown> }).alert_setting.power_outage).toEqual({ email: true, text: false });
    expect((await setting('USER_SETTING_ALERT_SET_USER', { alert_setting: JSON.stringify({ milk_hot: { email: true, text: true } }) })).status).toBe(422);
  });

  it('403 on a farm the caller is not linked to', async () => {
    expect((await setting('USER_SETTING_ALERT_GET_USER', {}, west)).status).toBe(403);
    expect((await setting('USER_SETTING_ALERT_SET_USER', { alert_setting: JSON.stringify({ water: { email: false, text: false } }) }, west)).status).toBe(403);
  });
});

describe('the answers match the schemas the web app parses them with (shared/api)', () => {
  it('every notification and setting type', async () => {
    // Outside any storage activity: the detail's no-record branch.
    await alerts.raise(notification({ _id: 'a-early', type: 104, data: { published_at: '2026-11-10T01:00:00.000Z', temp1: 1, milk_volume: 3000, agitator_status: 1 } }), false);
    const answers: [string, unknown, { safeParse: (v: unknown) => { success: boolean; error?: unknown } }][] = [
      ['FARMER_NOTIFICATION_STATUS', (await notif('FARMER_NOTIFICATION_STATUS', {})).body, notificationStatusAnswerSchema],
      ['FARMER_NOTIFICATION_LIST', (await notif('FARMER_NOTIFICATION_LIST', {})).body, notificationListAnswerSchema],
      ['FARMER_NOTIFICATION_ONE_EDIT', (await notif('FARMER_NOTIFICATION_ONE_EDIT', { item: JSON.stringify({ _id: 'a-102' }), status: '2' })).body, notificationEditAnswerSchema],
      ['FARMER_NOTIFICATION_DETAIL held', (await notif('FARMER_NOTIFICATION_DETAIL', { item: JSON.stringify({ _id: 'a-301' }) })).body, notificationDetailAnswerSchema],
      ['FARMER_NOTIFICATION_DETAIL none', (await notif('FARMER_NOTIFICATION_DETAIL', { item: JSON.stringify({ _id: 'a-early' }) })).body, notificationDetailAnswerSchema],
      ['USER_SETTING_ALERT_GET', (await setting('USER_SETTING_ALERT_GET', {}, farmer, 'farm-auto')).body, alertSettingsAnswerSchema],
      ['USER_SETTING_ALERT_SET', (await setting('USER_SETTING_ALERT_SET', { alert_setting: JSON.stringify({ milk_volume: 85 }) })).body, alertSettingsSetAnswerSchema],
      ['USER_SETTING_ALERT_GET_USER', (await setting('USER_SETTING_ALERT_GET_USER', {})).body, preferencesAnswerSchema],
      ['USER_SETTING_ALERT_SET_USER', (await setting('USER_SETTING_ALERT_SET_USER', { alert_setting: JSON.stringify({ water: { email: true, text: false } }) })).body, preferencesSetAnswerSchema],
    ];
    expect(answers.find(([name]) => name === 'FARMER_NOTIFICATION_DETAIL none')?.[1]).toMatchObject({ _id: null });
    for (const [name, body, schema] of answers) {
      const parsed = schema.safeParse(body);
      expect(parsed.success, `${name}: ${JSON.stringify(parsed.error)}`).toBe(true);
    }
  });
});
