import { WATCHMAN_DEFAULTS } from '../../shared/constants';
import { camelOf } from '../../shared/watchman/settings';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import type { StoredActivity } from '../../lambdas/ports/readings';
import type { Contract } from '../../shared/api/contract';
import { activityId, pointOf } from '../../shared/telemetry/activities';
import { localDayOf } from '../../shared/time/local-day';
import { DEMO_EQUIPMENT, DEMO_PASSWORD } from '../../local/seed/demo-data';
import { reading } from './reading-series';
import { newInstallFields } from './new-install';
import { testPushBrowser } from './web-push-client';

/**
 * Valid fields for every declared action, on the demo data of a test stack: the authorization
 * matrix calls each as every kind of caller, the answer conformance test as one allowed caller.
 * Module state is per test file (vitest isolates files), so each file fills its own context.
 */
export const sampleContext = {
  /** A signed-in caller's user id (the token's sub), by the matrix's caller name. */
  subOf: (caller: string): string => {
    throw new Error(`sampleContext.subOf is not set (asked for ${caller})`);
  },
  /** The stack's push service stand-in's origin (facts.push). */
  pushOrigin: (): string => {
    throw new Error('sampleContext.pushOrigin is not set');
  },
};
const PUSH_KEYS = testPushBrowser().keys;

const MIN = 60_000;
const now = Math.floor(Date.now() / MIN) * MIN;
/** The stored activities and raw message the samples name (seedSampleReadings fills them). */
const ids = { milking: '', storage: '', rawAt: '' };
let unique = 0;

/** A type's sample: by `<path> <type>` where two endpoints share a type name (VAT_CONFIG), else by type. */
export const sampleOf = (c: Pick<Contract, 'path' | 'type'>): Sample | undefined => SAMPLES[`${c.path} ${c.type}`] ?? SAMPLES[c.type];

/** Valid fields for each type, on the demo farmer's farms (farm-lite has no dairy company, so pickups are allowed). */
export interface Sample {
  readonly fields: () => Record<string, string>;
  /** A status other than 200 that still means the call got past the rule (the sample's own outcome). */
  readonly ok?: number;
}
export const SAMPLES: Record<string, Sample> = {
  // Each caller subscribes a browser of their own (at the local push service), lists and removes it.
  PUSH_SUBSCRIBE: { fields: () => ({ subscription: JSON.stringify({ endpoint: `${sampleContext.pushOrigin()}/push/matrix`, keys: PUSH_KEYS }) }) },
  PUSH_UNSUBSCRIBE: { fields: () => ({ endpoint: `${sampleContext.pushOrigin()}/push/matrix` }) },
  PUSH_DEVICES: { fields: () => ({}) },
  // Public: a token the notifier never signed is refused (422) whoever calls.
  PUSH_ACKNOWLEDGE: { fields: () => ({ token: 'e30.e30.AAAA' }), ok: 422 },
  USER_ONE_GET_BY_TOKEN: { fields: () => ({ farm: 'farm-pro' }) },
  USER_CHECK_LOGIN_STATUS: { fields: () => ({}) },
  USER_SIGN_IN: { fields: () => ({ user: JSON.stringify({ email: 'farmer@vatman.local', password: DEMO_PASSWORD }) }) },
  // A code step nobody started: past the rule, refused as a bad code (422).
  USER_SIGN_IN_TOTP: { fields: () => ({ user: JSON.stringify({ email: 'admin@vatman.local', session: 'no-such-session', code: '123456' }) }), ok: 422 },
  USER_SIGN_UP: {
    fields: () => ({
      gRecaptchaResponse: '',
      user: JSON.stringify({ firstName: 'Matrix', lastName: 'Test', email: `matrix-${process.pid}-${(unique += 1)}@vatman.local`, phone: '+64211239999', password: 'Matrix-pass-1' }),
    }),
  },
  USER_FORGOT_PASSWORD: { fields: () => ({ user: JSON.stringify({ email: 'nobody@vatman.local' }) }) },
  // A well-formed link for an address with no account: past the rule, refused as a bad link (422).
  USER_RESET_PASSWORD: { fields: () => ({ gRecaptchaResponse: '', user: JSON.stringify({ password: 'Matrix-pass-1', token: 'bm9ib2R5QHZhdG1hbi5sb2NhbA.123456' }) }), ok: 422 },
  FARMER_DASHBOARD_GET: { fields: () => ({ farm: 'farm-pro' }) },
  FARMER_DASHBOARD_GET_KNODE: { fields: () => ({ farm: 'farm-pro' }) },
  FARMER_DASHBOARD_MOUDLE: { fields: () => ({ farm: 'farm-pro' }) },
  FARMER_DASHBOARD_LAST: { fields: () => ({ farm: 'farm-pro' }) },
  FARMER_DASHBOARD_LAST_ALL: { fields: () => ({ farm: 'farm-pro' }) },
  FARMER_STORAGE_HISTORY: { fields: () => ({ farm: 'farm-pro' }) },
  FARMER_MILKING_LIST: { fields: () => ({ farm: 'farm-pro' }) },
  FARMER_MILKING_ONE: { fields: () => ({ activity_id: ids.milking }) },
  FARMER_MILKING_LIST_BRIEF: { fields: () => ({ activity_id: ids.milking }) },
  FARMER_MILKING_ONE_HEAD: { fields: () => ({ activity_id: ids.milking, herd: JSON.stringify({ cows: 300, note: 'matrix' }) }) },
  FARMER_STORAGE_ONE: { fields: () => ({ activity_id: ids.storage, alert_id: '' }) },
  FARMER_COLLECTION_LIST: { fields: () => ({ farm: 'farm-pro' }) },
  FARMER_AGITATOR_LIST: { fields: () => ({ farm: 'farm-pro' }) },
  ADD_PICKUP: { fields: () => ({ farm_id: 'farm-lite', vat: '1', datetime: new Date(now - 3_600_000).toISOString(), volume: '4000', temperature: '4' }) },
  FARMER_PICKUP_LIST: { fields: () => ({ farm: 'farm-lite' }) },
  // A pickup nobody entered: deleting what is not there answers 'success' for every caller the rule lets in.
  DELETE_PICKUP: { fields: () => ({ farm_id: 'farm-lite', vat: '1', datetime: '2020-01-01 00:00:00' }) },
  FARMER_NOTIFICATION_STATUS: { fields: () => ({ farm: 'farm-pro' }) },
  FARMER_NOTIFICATION_LIST: { fields: () => ({ farm: 'farm-pro' }) },
  // No such notification: past the rule, the farm's notification is looked for and not found (403).
  FARMER_NOTIFICATION_ONE_EDIT: { fields: () => ({ farm: 'farm-pro', item: JSON.stringify({ _id: 'none' }), status: '2' }), ok: 403 },
  FARMER_NOTIFICATION_DETAIL: { fields: () => ({ farm: 'farm-pro', item: JSON.stringify({ _id: 'none' }) }), ok: 403 },
  USER_SETTING_ALERT_GET: { fields: () => ({ farm: 'farm-pro' }) },
  USER_SETTING_ALERT_SET: { fields: () => ({ farm: 'farm-pro', alert_setting: JSON.stringify({}) }) },
  // A vat of another farm: past the rule, refused by the action (403); the real exchange is tested in alerts-settings-device.
  USER_SETTING_ALERT_SET_AUTO: { fields: () => ({ farm: 'farm-auto', vat: JSON.stringify({ _id: 'dev-31245-1' }) }), ok: 403 },
  USER_SETTING_ALERT_GET_USER: { fields: () => ({ farm: 'farm-pro' }) },
  USER_SETTING_ALERT_SET_USER: { fields: () => ({ farm: 'farm-pro', alert_setting: JSON.stringify({}) }) },
  USER_PROFILE_DATAILS: { fields: () => ({}) },
  // Each caller renames themselves to the same name; the phone of the sample is the demo farmer's.
  USER_PROFILE_EDIT_BASE: { fields: () => ({ user: JSON.stringify({ firstName: 'Matrix', lastName: 'Caller', phone: '+64211234501' }) }) },
  // A wrong current password: past the rule, refused by Cognito (422), so no password changes.
  USER_PROFILE_EDIT_PASSWORD: { fields: () => ({ password: 'Not-the-password-1', password1: 'Matrix-pass-2', password2: 'Matrix-pass-2' }), ok: 422 },
  USER_PROFILE_VERIFY_SEND_EMAIL: { fields: () => ({}) },
  USER_PROFILE_VERIFY_SEND_PHONE: { fields: () => ({}) },
  // A code that was never sent: past the rule, refused (422).
  USER_PROFILE_VERIFY_CHECK_EMAIL: { fields: () => ({ verification: '000000' }), ok: 422 },
  USER_PROFILE_VERIFY_CHECK_PHONE: { fields: () => ({ verification: '000000' }), ok: 422 },
  SURVEY_SUBMIT: { fields: () => ({ products: JSON.stringify({ water: true }) }) },
  // The caller's own alert route: read, and subscribed again (a confirmed one is left as it is).
  USER_ALERT_EMAIL_STATUS: { fields: () => ({}) },
  USER_ALERT_EMAIL_RESEND: { fields: () => ({}) },
  // 422 for a caller whose email is not verified yet (a new account).
  USER_AUTHENTICATOR_CONFIRM_SEND: { fields: () => ({}), ok: 422 },
  USER_AUTHENTICATOR_CONFIRM: { fields: () => ({ code: '000000' }), ok: 422 },
  USER_LIST: { fields: () => ({}) },
  // The installer's role and herd flag set to what they are: allowed callers change nothing.
  USER_ROLE_EDIT: { fields: () => ({ userid: sampleContext.subOf('Installer'), role: 'Installer' }) },
  USER_HERD_EDIT: { fields: () => ({ userid: sampleContext.subOf('Installer'), is_herd_enabled: '0' }) },
  USER_AUDIT_LIST: { fields: () => ({}) },
  DEVICE_LIST: { fields: () => ({ isRetired: '1' }) },
  FLEET_SUMMARY: { fields: () => ({}) },
  OPERATOR_SEARCH: { fields: () => ({ q: '31245' }) },
  INGEST_PROBLEMS: { fields: () => ({}) },
  FARM_LIST: { fields: () => ({ dairy_current: 'ALL' }) },
  // The Pro farm's flags set to what they are: allowed callers change nothing.
  FARM_AUTO_CHECK_STATUS: { fields: () => ({ _id: 'farm-pro', auto_check: 'true' }) },
  FARM_FONTERRA_API_STATUS: { fields: () => ({ _id: 'farm-pro', fonterra_api_status: 'false' }) },
  FARM_HARVEST_API_STATUS: { fields: () => ({ _id: 'farm-pro', harvest: 'false' }) },
  FARMS_SETTINGS_GET: { fields: () => ({}) },
  FARM_BILLING_OUTPUT: { fields: () => ({ month: '2026-06' }) },
  FARM_AUDIT_LIST: { fields: () => ({}) },
  FARM_DELIVERY_DEAD_LETTERS: { fields: () => ({}) },
  // The Pro farm's seeded window imported again (as JSON text; the page sends a multipart file).
  FARMS_SETTINGS_UPLOAD: { fields: () => ({ farms_settings: JSON.stringify({ filename: 'windows.csv', content: 'supply_number,buffer_duration,end_of_milking\n31245,30,08:30\n' }) }) },
  WESTLANDS_FARMS: { fields: () => ({}) },
  // Today on the Auto farm's vat 2 (FON50412 by its 5 digits) and the Westlands farm's vat 1 (WES118 by its 3).
  MILK_QUALITY_DATA: { fields: () => ({ supplyNumber: '50412', vatNumber: '2', fromDate: localDayOf(now, 'Pacific/Auckland'), toDate: localDayOf(now, 'Pacific/Auckland') }) },
  WESTLANDS_DATA: { fields: () => ({ supplyNumber: '118', vatNumber: '1', fromDate: localDayOf(now, 'Pacific/Auckland'), toDate: localDayOf(now, 'Pacific/Auckland') }) },
  MILK_DATA_LOOKUPS: { fields: () => ({}) },
  GET_SETTINGS: { fields: () => ({}) },
  GET_ACTIVITY: { fields: () => ({ page: '0' }) },
  GET_ACTIVITY_SUMMARY: { fields: () => ({}) },
  // The §9 defaults saved as they are: allowed callers store what GET_SETTINGS already answers.
  SAVE_SETTINGS: { fields: () => Object.fromEntries(Object.entries(WATCHMAN_DEFAULTS).map(([k, v]) => [camelOf(k), String(v)])) },
  EQUIPMENT_GET: { fields: () => ({ farm: 'farm-pro' }) },
  // The Pro farm's own plant written again: allowed callers change nothing.
  EQUIPMENT_UPDATE: { fields: () => ({ farm: 'farm-pro', equipment: JSON.stringify(DEMO_EQUIPMENT['farm-pro']) }) },
  EQUIPMENT_DATA_GET: { fields: () => ({ farm: 'farm-pro' }) },
  DEVICE_EDIT: { fields: () => ({ device_id: 'dev-31245-2', status: '1' }) },
  DEVICE_LOAD_NAME: { fields: () => ({}) },
  DEVICE_AUDIT_LIST: { fields: () => ({}) },
  DEVICE_ONE_RAWS: { fields: () => ({ device_id: 'dev-31245-1', days: '0' }) },
  DEVICE_ONE: { fields: () => ({ device_id: 'dev-31245-1' }) },
  DEVICE_ONE_SERIES: { fields: () => ({ device_id: 'dev-31245-1', days1: '1', hours1: '0', days2: '0', hours2: '0' }) },
  DEVICE_ONE_SERIES_TIME_RANGE: { fields: () => ({ device_id: 'dev-31245-1', start: new Date(now - 2 * 3_600_000).toISOString(), end: new Date(now - 3_600_000).toISOString() }) },
  DEVICE_ONE_SERIES_WINDOW: { fields: () => ({ device_id: 'dev-31245-1', start: new Date(now - 2 * 3_600_000).toISOString(), end: new Date(now - 3_600_000).toISOString() }) },
  DEVICE_ONE_RAW: { fields: () => ({ _id: `dev-31245-1~${ids.rawAt}` }) },
  ORGANIZATION_LIST: { fields: () => ({ organization_id: 'org-ngata' }) },
  // Each allowed caller adds a sub-organization of its own (nothing else reads them here).
  ORGANIZATION_ADD: { fields: () => ({ organization_id: 'org-ngata', name: `Matrix ${(unique += 1)}`, tag: 'Branch', contact: '', address: '', email: '', phone: '' }) },
  // The seeded group written again as it is: allowed callers change nothing.
  ORGANIZATION_EDIT: {
    fields: () => ({ _id: 'org-ngata', name: 'Ngata Farming Group', contact: 'Aroha Ngata', address: '12 Totara Road, Matamata', email: 'farmer@vatman.local', phone: '+64211234501' }),
  },
  // The group holds farms: past the rule, refused by the action (422), so it stays for the other callers.
  ORGANIZATION_DELETE: { fields: () => ({ _id: 'org-ngata' }), ok: 422 },
  // Adding a member again keeps their role: nothing changes.
  ORGANIZATION_USER_ADD: { fields: () => ({ organization_id: 'org-ngata', email: 'westfarmer@vatman.local' }) },
  // Someone not in the group: past the rule, refused by the action (422).
  ORGANIZATION_USER_UNLINK: { fields: () => ({ organization_id: 'org-ngata', user_id: 'not-a-member' }), ok: 422 },
  FARMER_LOG_FONTERRA: { fields: () => ({ farm: 'farm-pro' }) },
  // The matrix's stack sends nothing to the gateway, so nothing is refused: allowed callers queue nothing.
  DAIRY_EVENT_RESEND: { fields: () => ({ farm: 'farm-pro' }) },
  COLLECTIONS: { fields: () => ({ amount: 'RECENT', supplyNumber: '31245', vatNumber: '1' }) },
  // Calibration's VAT_CONFIG reads (operator §7 lists a VAT_CONFIG on each endpoint, keyed here by path).
  '/api/calibration VAT_CONFIG': { fields: () => ({ supplyNumber: '31245', vatNumber: '1' }) },
  // The Pro farm's vat 1 calibrated to what it already has (local/seed/demo-data.ts): allowed callers change nothing.
  VAT_SETTINGS: { fields: () => ({ supplyNumber: '31245', vatNumber: '1', vatSize: '14000', height: '2438', diameter: '2875', wedgeHeight: '60', volumeOffset: '0' }) },
  // The Pro farm's unit and vat 2 as seeded, written again: allowed callers change nothing but the vat's radar serial.
  DEVICE_SEARCH: { fields: () => ({ supplyNumber: '31245' }) },
  PARTICLE_CONFIG: {
    fields: () => ({ key: 'farm', particleID: 'unit-352656100000029', imei: '352656100000029', farmID: 'farm-pro', supplyNumber: '31245', productVariant: 'Vat-Man Pro', lowConnectivity: 'false' }),
  },
  '/api/installer VAT_CONFIG': {
    fields: () => ({
      particleID: 'unit-352656100000029',
      farmID: 'farm-pro',
      deviceID: 'dev-31245-2',
      supplyNumber: '31245',
      vatNumber: '2',
      diameter: '2337',
      volume: '11000',
      height: '2719',
      manufacturer: '',
      serial: '',
      radarSerial: 'RS-31245-2',
      auto: 'false',
      wedgeHeight: '60',
    }),
  },
  INSTALLS: { fields: () => ({ supplyNumber: '', logType: 'All', page: '0', pageSize: '50' }) },
  // Check Install on the Pro farm: each allowed call adds an install log entry, nothing else.
  // An unknown supply number ('No such farm', 200): every demo farm has a unit, and with no simulator
  // behind it each allowed caller would wait out the check's timeout (installer-check.test.ts asks units).
  CHECK_ONLINE: { fields: () => ({ supplyNumber: 'NOPE999' }) },
  CHECK_DIAGNOSTICS: { fields: () => ({ supplyNumber: 'NOPE999' }) },
  CHECK_SENSORBOARDS: { fields: () => ({ supplyNumber: 'NOPE999' }) },
  // A fresh unit and supply number each call: every allowed caller provisions a new one-vat install.
  NEW_INSTALL: {
    fields: () => {
      unique += 1;
      return newInstallFields(`MX${unique}`, `35265619${String(unique).padStart(7, '0')}`);
    },
  },
  // A new key pair for the Pro farm's unit: each allowed call revokes the one before.
  REISSUE_CERTIFICATE: { fields: () => ({ supplyNumber: '31245' }) },
  // The cooling compliance record: the current season of the farm.
  FARMER_COMPLIANCE_RECORD: { fields: () => ({ farm: 'farm-pro' }) },
};

/** A milking and a storage on farm-pro's vat 1, as the ingest would have stored them, and a stored message with its raw payload (DEVICE_ONE_RAW). */
export const seedSampleReadings = async (readingsTable: string): Promise<void> => {
  const readings = dynamoReadingsRepository(createDocumentClient(), readingsTable);
  const point = (m: number) => pointOf(reading(new Date(now - 5 * 3_600_000 + m * MIN).toISOString(), { temp1: 4, milk_volume: m * 20 }));
  for (const kind of ['milking', 'storage'] as const) {
    const a: StoredActivity = { kind, device_id: 'dev-31245-1', farm_id: 'farm-pro', start: point(0), end: kind === 'milking' ? point(90) : null };
    await readings.putActivity(a, 1);
    ids[kind] = activityId('dev-31245-1', a);
  }
  // A stored message with its raw payload (DEVICE_ONE_RAW).
  ids.rawAt = new Date(now - 3 * 3_600_000).toISOString();
  await readings.putReading('dev-31245-1', reading(ids.rawAt), JSON.stringify({ published_at: ids.rawAt }));
};
