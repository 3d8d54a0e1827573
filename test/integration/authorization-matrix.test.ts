import { AdminAddUserToGroupCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { WATCHMAN_DEFAULTS } from '../../shared/constants';
import { camelOf } from '../../shared/watchman/settings';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import type { StoredActivity } from '../../lambdas/ports/readings';
import type { Access, Contract } from '../../shared/api/contract';
import { ALL_CONTRACTS } from '../../shared/api/contracts';
import { activityId, pointOf } from '../../shared/telemetry/activities';
import { localDayOf } from '../../shared/time/local-day';
import { MSG_TOTP_REQUIRED, OPERATOR_GROUPS, TOTP_CLAIM } from '../../shared/roles';
import { DEMO_EQUIPMENT, DEMO_PASSWORD } from '../../local/seed/demo-data';
import { decodeJwt, signJwt, strangerKey } from '../support/jwt';
import { startTestStack } from '../support/local-stack';
import { reading } from '../support/reading-series';
import { newInstallFields } from '../support/new-install';
import { openApiAnswerValidator } from '../support/openapi-answers';
import { testPushBrowser } from '../support/web-push-client';

/**
 * The authorization matrix (issue "Action contracts"): every declared contract (shared/api/contracts.ts)
 * is called through the local API gateway as every kind of caller, and the status must be exactly
 * what its access rule says. A new action is covered the moment it is declared: a contract without
 * sample fields below fails the test. Then every field of every action is sent oversized and
 * wrong-typed: each must be a 422 and nothing may be stored.
 */

/** `unenrolled`: a member of every operator group with no authenticator app (issue 13). */
type Caller = 'none' | 'forged' | 'newUser' | 'otherFarmer' | 'owner' | 'Installer' | 'MilkQuality' | 'Westlands' | 'Admin' | 'unenrolled';
const CALLERS: readonly Caller[] = ['none', 'forged', 'newUser', 'otherFarmer', 'owner', 'Installer', 'MilkQuality', 'Westlands', 'Admin', 'unenrolled'];
const EMAIL: Partial<Record<Caller, string>> = {
  otherFarmer: 'westfarmer@vatman.local',
  owner: 'farmer@vatman.local',
  Installer: 'installer@vatman.local',
  MilkQuality: 'milkquality@vatman.local',
  Westlands: 'westlands@vatman.local',
  Admin: 'admin@vatman.local',
};

/** What the rule says for a caller: 200 (or the sample's own answer for a call past the rule), 401 or 403. */
const expected = (rule: Access, caller: Caller): 'allowed' | 401 | 403 => {
  if (rule.kind === 'public') return 'allowed';
  if (caller === 'none' || caller === 'forged') return 401;
  // Every operator group but no authenticator app: no operator action, and no Admin reach (a farmer with no farm).
  if (caller === 'unenrolled') return rule.kind === 'self' ? 'allowed' : 403;
  if (caller === 'Admin' || rule.kind === 'self') return 'allowed';
  if (rule.kind === 'farmMember' || rule.kind === 'activityMember') return caller === 'owner' ? 'allowed' : 403;
  // The demo organization: farmer@ is its Admin, westfarmer@ a member with the role User.
  if (rule.kind === 'orgMember') return caller === 'owner' || caller === 'otherFarmer' ? 'allowed' : 403;
  if (rule.kind === 'orgAdmin') return caller === 'owner' ? 'allowed' : 403;
  return (rule.groups as readonly string[]).includes(caller) ? 'allowed' : 403;
};

const PUSH_KEYS = testPushBrowser().keys;
const MIN = 60_000;
const now = Math.floor(Date.now() / MIN) * MIN;
const ids = { milking: '', storage: '', rawAt: '' };
let unique = 0;

/** A type's sample: by `<path> <type>` where two endpoints share a type name (VAT_CONFIG), else by type. */
const sampleOf = (c: Pick<Contract, 'path' | 'type'>): Sample | undefined => SAMPLES[`${c.path} ${c.type}`] ?? SAMPLES[c.type];

/** Valid fields for each type, on the demo farmer's farms (farm-lite has no dairy company, so pickups are allowed). */
interface Sample {
  readonly fields: () => Record<string, string>;
  /** A status other than 200 that still means the call got past the rule (the sample's own outcome). */
  readonly ok?: number;
}
const SAMPLES: Record<string, Sample> = {
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
  // Each caller subscribes a browser of their own (at the local push service), lists and removes it.
  PUSH_SUBSCRIBE: { fields: () => ({ subscription: JSON.stringify({ endpoint: `${stack.facts.push}/push/matrix`, keys: PUSH_KEYS }) }) },
  PUSH_UNSUBSCRIBE: { fields: () => ({ endpoint: `${stack.facts.push}/push/matrix` }) },
  PUSH_DEVICES: { fields: () => ({}) },
  // Public: a token the notifier never signed is refused (422) whoever calls.
  PUSH_ACKNOWLEDGE: { fields: () => ({ token: 'e30.e30.AAAA' }), ok: 422 },
  USER_AUTHENTICATOR_CONFIRM: { fields: () => ({ code: '000000' }), ok: 422 },
  USER_LIST: { fields: () => ({}) },
  // The installer's role and herd flag set to what they are: allowed callers change nothing.
  USER_ROLE_EDIT: { fields: () => ({ userid: subOf('Installer'), role: 'Installer' }) },
  USER_HERD_EDIT: { fields: () => ({ userid: subOf('Installer'), is_herd_enabled: '0' }) },
  USER_AUDIT_LIST: { fields: () => ({}) },
  DEVICE_LIST: { fields: () => ({ isRetired: '1' }) },
  FLEET_SUMMARY: { fields: () => ({}) },
  OPERATOR_SEARCH: { fields: () => ({ q: '31245' }) },
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
  // The cooling compliance record (issue 26): the current season of the farm.
  FARMER_COMPLIANCE_RECORD: { fields: () => ({ farm: 'farm-pro' }) },
};

let stack: Awaited<ReturnType<typeof startTestStack>>;
const tokens: Partial<Record<Caller, string>> = {};
/** A signed-in caller's user id (the token's sub). */
const subOf = (caller: Caller): string => String(decodeJwt(tokens[caller] as string).sub);

/**
 * One call through the gateway. Hundreds of calls a few seconds apart go over the gateway's stage
 * throttle (shared/api/throttle.ts); a 429 is the throttle, not the rule under test, so the call
 * waits and is sent again.
 */
const send = async (c: Contract, caller: Caller, fields: Record<string, unknown>, json = false): Promise<{ status: number; text: string }> => {
  const token = tokens[caller];
  const body = { type: c.type, ...fields };
  for (let attempt = 0; ; attempt += 1) {
    const res = await fetch(`${stack.facts.api}${c.path}`, {
      method: 'POST',
      headers: {
        'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: json ? JSON.stringify(body) : new URLSearchParams(body as Record<string, string>).toString(),
    });
    const text = await res.text();
    if (res.status !== 429 || attempt >= 50) return { status: res.status, text };
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** Every item of the tables an action can write, hashed: equal hashes mean nothing was stored. */
const tablesHash = async () => {
  const doc = createDocumentClient();
  const { farmsTable, readingsTable, alertsTable } = stack.facts.dynamodb;
  const hash = createHash('sha256');
  for (const table of [farmsTable, readingsTable, alertsTable]) {
    let start: Record<string, unknown> | undefined;
    const items: string[] = [];
    do {
      const page = await doc.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start }));
      items.push(...(page.Items ?? []).map((i) => JSON.stringify(i, Object.keys(i).sort())));
      start = page.LastEvaluatedKey;
    } while (start);
    hash.update(items.sort().join('\n'));
  }
  return hash.digest('hex');
};

beforeAll(async () => {
  stack = await startTestStack();
  // A milking and a storage on farm-pro's vat 1, as the ingest would have stored them.
  const readings = dynamoReadingsRepository(createDocumentClient(), stack.facts.dynamodb.readingsTable);
  const point = (m: number) => pointOf(reading(new Date(now - 5 * 3_600_000 + m * MIN).toISOString(), { temp1: 4, milk_volume: m * 20 }));
  for (const kind of ['milking', 'storage'] as const) {
    const a: StoredActivity = { kind, device_id: 'dev-31245-1', farm_id: 'farm-pro', start: point(0), end: kind === 'milking' ? point(90) : null };
    await readings.putActivity(a, 1);
    ids[kind] = activityId('dev-31245-1', a);
  }
  // A stored message with its raw payload (DEVICE_ONE_RAW).
  ids.rawAt = new Date(now - 3 * 3_600_000).toISOString();
  await readings.putReading('dev-31245-1', reading(ids.rawAt), JSON.stringify({ published_at: ids.rawAt }));
  for (const [caller, email] of Object.entries(EMAIL)) tokens[caller as Caller] = await stack.signIn(email);
  const signUp = await stack.post('/api/user', { type: 'USER_SIGN_UP', gRecaptchaResponse: '', ...SAMPLES.USER_SIGN_UP?.fields() });
  tokens.newUser = (signUp.body as { token: string }).token;
  // A new account put in every operator group, never enrolled in TOTP.
  const unenrolled = SAMPLES.USER_SIGN_UP?.fields() ?? {};
  expect((await stack.post('/api/user', { type: 'USER_SIGN_UP', ...unenrolled })).status).toBe(200);
  const { email: unenrolledEmail, password: unenrolledPassword } = JSON.parse(unenrolled.user ?? '{}') as { email: string; password: string };
  const { cognito } = stack.facts;
  const idp = new CognitoIdentityProviderClient({ endpoint: cognito.endpoint, region: cognito.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  for (const group of OPERATOR_GROUPS) await idp.send(new AdminAddUserToGroupCommand({ UserPoolId: cognito.userPoolId, Username: unenrolledEmail, GroupName: group }));
  tokens.unenrolled = await stack.signIn(unenrolledEmail, unenrolledPassword);
  expect(decodeJwt(tokens.unenrolled)[TOTP_CLAIM]).toBeUndefined();
  expect(Number(decodeJwt(tokens.Admin as string)[TOTP_CLAIM])).toBeGreaterThan(0);
  // The admin's own token, re-signed with a key the pool never had.
  tokens.forged = signJwt({ ...decodeJwt(tokens.Admin as string), 'cognito:groups': ['Admin'] }, strangerKey(), 'CognitoLocal');
}, 180_000);
afterAll(async () => stack?.stop());

describe('authorization matrix: every declared action × every kind of caller', () => {
  it('has sample fields for every declared action (a new action must be added here to be covered)', () => {
    expect(ALL_CONTRACTS.filter((c) => !sampleOf(c)).map((c) => `${c.path} ${c.type}`)).toEqual([]);
  });

  it('answers exactly as each access rule says, every 200 answer as docs/openapi.json describes it', async () => {
    const wrong: string[] = [];
    // Each 200 answer against the API reference (ajv, not the zod schemas it was made from).
    const violations: string[] = [];
    const conforms = openApiAnswerValidator();
    let covered = 0;
    let validated = 0;
    for (const c of ALL_CONTRACTS) {
      const sample = sampleOf(c);
      if (!sample) continue;
      for (const caller of CALLERS) {
        const res = await send(c, caller, sample.fields());
        const want = expected(c.access, caller);
        const okStatuses = want === 'allowed' ? [200, sample.ok ?? 200] : [want];
        if (!okStatuses.includes(res.status)) wrong.push(`${c.path} ${c.type} as ${caller}: ${res.status} (expected ${okStatuses.join(' or ')}) ${res.text.slice(0, 160)}`);
        // The operator without TOTP is told why, so the app can send them to enrol.
        else if (caller === 'unenrolled' && c.access.kind === 'operator' && JSON.parse(res.text).message !== MSG_TOTP_REQUIRED) wrong.push(`${c.path} ${c.type} as unenrolled: ${res.text.slice(0, 160)}`);
        if (res.status === 200) {
          violations.push(...conforms(c, res.text).map((v) => `${v} (as ${caller})`));
          validated += 1;
        }
        covered += 1;
      }
    }
    console.info(`authorization matrix: ${ALL_CONTRACTS.length} actions × ${CALLERS.length} callers = ${covered} calls; ${validated} answers checked against docs/openapi.json`);
    expect(wrong).toEqual([]);
    expect(violations).toEqual([]);
    expect(covered).toBe(ALL_CONTRACTS.length * CALLERS.length);
  }, 300_000);
});

describe('no input gives a 500: every field oversized and wrong-typed is a 422, and nothing is stored', () => {
  it('sweeps every field of every action', async () => {
    const before = await tablesHash();
    const wrong: string[] = [];
    let probes = 0;
    for (const c of ALL_CONTRACTS) {
      const sample = sampleOf(c);
      if (!sample || !(c.input instanceof z.ZodObject)) continue;
      // A caller the rule lets through, so the fields are what is judged.
      const caller: Caller = c.access.kind === 'public' ? 'none' : 'Admin';
      for (const field of Object.keys(c.input.shape).filter((k) => k !== 'type')) {
        for (const [label, value, json] of [
          ['oversized', 'x'.repeat(100_001), false],
          ['wrong-typed', [{}], true],
        ] as const) {
          const fields = { ...sample.fields(), [field]: value };
          const res = await send(c, caller, fields, json);
          probes += 1;
          if (res.status !== 422) wrong.push(`${c.type}.${field} ${label}: ${res.status} ${res.text.slice(0, 120)}`);
        }
      }
    }
    console.info(`input sweep: ${probes} probes`);
    expect(wrong).toEqual([]);
    expect(await tablesHash()).toBe(before);
  }, 300_000);

  it('refuses the 3,000-character farm id a new user once turned into a 500', async () => {
    const c = ALL_CONTRACTS.find((x) => x.type === 'FARMER_DASHBOARD_GET') as Contract;
    expect((await send(c, 'newUser', { farm: 'f'.repeat(3_000) })).status).toBe(422);
  });
});

describe("Cognito's answers are mapped, never a 500", () => {
  /** A raw body as the caller's bearer would send it; the local gateway's per-address limit (429) is waited out, as `send` does. */
  const raw = async (c: Contract, token: string | undefined, body: string): Promise<{ status: number; text: string }> => {
    for (let attempt = 0; ; attempt += 1) {
      const res = await fetch(`${stack.facts.api}${c.path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body });
      const text = await res.text();
      if (res.status !== 429 || text.includes('Too many attempts') || attempt >= 50) return { status: res.status, text };
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const SELF_SERVICE = ['USER_PROFILE_EDIT_PASSWORD', 'USER_PROFILE_VERIFY_SEND_EMAIL', 'USER_PROFILE_VERIFY_SEND_PHONE', 'USER_PROFILE_VERIFY_CHECK_EMAIL', 'USER_PROFILE_VERIFY_CHECK_PHONE', 'USER_AUTHENTICATOR_CONFIRM_SEND', 'USER_AUTHENTICATOR_CONFIRM'];

  it("tells an ID-token bearer to sign in again where Cognito needs the person's access token, and answers every self action without a 500", async () => {
    const signIn = await stack.post('/api/user', { type: 'USER_SIGN_IN', user: JSON.stringify({ email: EMAIL.owner, password: DEMO_PASSWORD }) });
    const idToken = (signIn.body as { idToken: string }).idToken;
    expect(decodeJwt(idToken).token_use).toBe('id');
    const wrong: string[] = [];
    for (const c of ALL_CONTRACTS.filter((x) => x.access.kind === 'self')) {
      const sample = sampleOf(c);
      if (!sample) continue;
      const res = await raw(c, idToken, JSON.stringify({ type: c.type, ...sample.fields() }));
      if (SELF_SERVICE.includes(c.type) ? res.status !== 401 || JSON.parse(res.text).message !== 'Please sign in again.' : res.status >= 500) wrong.push(`${c.type}: ${res.status} ${res.text.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers repeated verification sends with success or 429, never a 500', async () => {
    const statuses: number[] = [];
    for (const type of ['USER_PROFILE_VERIFY_SEND_EMAIL', 'USER_PROFILE_VERIFY_SEND_PHONE', 'USER_AUTHENTICATOR_CONFIRM_SEND']) {
      const c = ALL_CONTRACTS.find((x) => x.type === type) as Contract;
      for (let i = 0; i < 5; i += 1) statuses.push((await raw(c, tokens.owner, JSON.stringify({ type }))).status);
    }
    expect(statuses.filter((s) => ![200, 429].includes(s))).toEqual([]);
  });

  it('answers malformed JSON, an array body and a bare value with a 422 for every action (a 401 without a token when no type can be read), and stores nothing', async () => {
    const before = await tablesHash();
    const wrong: string[] = [];
    for (const c of ALL_CONTRACTS) {
      const token = c.access.kind === 'public' ? undefined : tokens.Admin;
      for (const body of [`{"type":"${c.type}",`, JSON.stringify([{ type: c.type }]), '42', 'null']) {
        const res = await raw(c, token, body);
        // Without a token, a body whose type cannot be read may name any action: 401, as for a non-public one.
        const expected = token === undefined && !body.startsWith('{') ? 401 : 422;
        if (res.status !== expected) wrong.push(`${c.path} ${c.type} ${body.slice(0, 30)}: ${res.status} ${res.text.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await tablesHash()).toBe(before);
  }, 300_000);
});
