import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoAlertsRepository } from '../../lambdas/adapters/dynamodb/alerts-repository';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import { signAckToken, vapidPrivateKey } from '../../lambdas/adapters/push/ack-tokens';
import { localVapidKeys } from '../../local/stand-ins/push-keys';
import type { Contract } from '../../shared/api/contract';
import { ALL_CONTRACTS } from '../../shared/api/contracts';
import type { OutboxMessage } from '../../local/stand-ins/sns-outbox';
import { DEMO_PASSWORD } from '../../local/seed/demo-data';
import { totpCode } from '../../local/seed/totp';
import { decodeJwt } from '../support/jwt';
import { startTestStack } from '../support/local-stack';
import { openApiAnswerValidator } from '../support/openapi-answers';
import { sampleContext, sampleOf, seedSampleReadings } from '../support/action-samples';
import { until } from '../support/until';

/**
 * Every action with a success answer gives one here, and that answer is checked against
 * docs/openapi.json (ajv, independent of the zod schemas it was made from). The matrix's samples
 * serve where an allowed caller gets a 2xx from them; the actions whose samples are refused past
 * the rule on purpose (a wrong code, a group that holds farms) get a recipe below that seeds
 * what a success needs. A final test lists the actions never validated.
 */
let stack: Awaited<ReturnType<typeof startTestStack>>;
const tokens: Record<string, string> = {};
const validated = new Set<string>();
const violations: string[] = [];
const conforms = openApiAnswerValidator();
const keyOf = (c: Pick<Contract, 'path' | 'type'>) => `${c.path} ${c.type}`;
const contractOf = (type: string, path?: string): Contract => ALL_CONTRACTS.find((c) => c.type === type && (path === undefined || c.path === path)) as Contract;

const send = async (c: Contract, fields: Record<string, string>, token?: string): Promise<{ status: number; text: string }> => {
  for (let attempt = 0; ; attempt += 1) {
    const res = await fetch(`${stack.facts.api}${c.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: new URLSearchParams({ type: c.type, ...fields }).toString(),
    });
    const text = await res.text();
    // The stage throttle is not what is under test: wait and send again.
    if (res.status !== 429 || attempt >= 50) return { status: res.status, text };
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** One call whose answer must be a 2xx that conforms; answers the parsed body. */
const succeed = async (type: string, fields: Record<string, string>, token?: string, path?: string): Promise<unknown> => {
  const c = contractOf(type, path);
  const res = await send(c, fields, token);
  expect(res.status, `${keyOf(c)}: ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(200);
  expect(res.status, `${keyOf(c)}: ${res.text.slice(0, 200)}`).toBeLessThan(300);
  violations.push(...conforms(c, res.text));
  validated.add(keyOf(c));
  return JSON.parse(res.text) as unknown;
};

const outbox = async (): Promise<OutboxMessage[]> => (await fetch(stack.facts.sns)).json() as Promise<OutboxMessage[]>;
const mailAfter = (after: number, match: (m: OutboxMessage) => boolean) => until(async () => (await outbox()).slice(after).find(match), { timeoutMs: 10_000, what: 'the message in the outbox' });

/** A new self-service account: its token and credentials. */
let made = 0;
const newAccount = async () => {
  made += 1;
  const email = `conformance-${process.pid}-${made}@vatman.local`;
  const password = 'Conform-pass-1';
  const body = (await succeed('USER_SIGN_UP', { gRecaptchaResponse: '', user: JSON.stringify({ firstName: 'Conform', lastName: 'Test', email, phone: '+64211239998', password }) })) as { token: string };
  return { email, password, token: body.token };
};

/** A new account whose email is verified through the sign-up's link (USER_PROFILE_VERIFY_CHECK_EMAIL). */
const verifiedAccount = async () => {
  const account = await newAccount();
  const mail = await mailAfter(0, (m) => m.to === account.email && m.subject === 'Verify your Vat-Man email');
  await succeed('USER_PROFILE_VERIFY_CHECK_EMAIL', { verification: /\/dts\/user\/profile\/(\d{6})/.exec(mail.message)?.[1] ?? '' }, account.token);
  return account;
};

beforeAll(async () => {
  stack = await startTestStack();
  await seedSampleReadings(stack.facts.dynamodb.readingsTable);
  for (const [name, email] of Object.entries({ owner: 'farmer@vatman.local', Admin: 'admin@vatman.local', Installer: 'installer@vatman.local' })) tokens[name] = await stack.signIn(email);
  sampleContext.subOf = (caller) => String(decodeJwt(tokens[caller] as string).sub);
  sampleContext.pushOrigin = () => stack.facts.push;
}, 180_000);
afterAll(async () => stack?.stop());

/**
 * Recipes for the actions whose matrix sample is refused past the rule: each seeds what a success
 * needs and makes the call through `succeed`.
 */
const RECIPES: Record<string, () => Promise<void>> = {
  USER_SIGN_IN_TOTP: async () => {
    const email = 'admin@vatman.local';
    const step = (await succeed('USER_SIGN_IN', { user: JSON.stringify({ email, password: DEMO_PASSWORD }) })) as { session: string };
    const secret = stack.facts.accounts.find((a) => a.email === email)?.totpSecret as string;
    await succeed('USER_SIGN_IN_TOTP', { user: JSON.stringify({ email, session: step.session, code: totpCode(secret) }) });
  },
  USER_RESET_PASSWORD: async () => {
    // Cognito sends reset codes to a verified address only.
    const { email } = await verifiedAccount();
    const after = (await outbox()).length;
    await succeed('USER_FORGOT_PASSWORD', { user: JSON.stringify({ email }) });
    const mail = await mailAfter(after, (m) => m.to === email && m.subject === 'Reset your Vat-Man password');
    const link = /\/dts\/password\/reset\/(\S+)/.exec(mail.message)?.[1] ?? '';
    await succeed('USER_RESET_PASSWORD', { gRecaptchaResponse: '', user: JSON.stringify({ password: 'Conform-pass-2', token: link }) });
  },
  USER_PROFILE_VERIFY_CHECK_PHONE: async () => {
    const { token } = await newAccount();
    const after = (await outbox()).length;
    await succeed('USER_PROFILE_VERIFY_SEND_PHONE', {}, token);
    const text = await mailAfter(after, (m) => m.channel === 'sms' && m.to === '+64211239998');
    await succeed('USER_PROFILE_VERIFY_CHECK_PHONE', { verification: /(\d{6})/.exec(text.message)?.[1] ?? '' }, token);
  },
  USER_PROFILE_EDIT_PASSWORD: async () => {
    const { password, token } = await newAccount();
    await succeed('USER_PROFILE_EDIT_PASSWORD', { password, password1: 'Conform-pass-3', password2: 'Conform-pass-3' }, token);
  },
  USER_AUTHENTICATOR_CONFIRM: async () => {
    // The admin's app confirmed again with the code sent to their verified email.
    const after = (await outbox()).length;
    await succeed('USER_AUTHENTICATOR_CONFIRM_SEND', {}, tokens.Admin);
    const mail = await mailAfter(after, (m) => m.to === 'admin@vatman.local' && m.subject === 'Confirm your Vat-Man authenticator app');
    await succeed('USER_AUTHENTICATOR_CONFIRM', { code: /^(\d{6})$/m.exec(mail.message)?.[1] ?? '' }, tokens.Admin);
  },
  FARMER_DASHBOARD_LAST_ALL: async () => {
    // Both forms of the range answer: the spec's rows by default, the columns the web app asks for.
    const fields = { farm: 'farm-pro', points: '400' };
    const rows = (await succeed('FARMER_DASHBOARD_LAST_ALL', fields, tokens.owner)) as Record<string, unknown>[];
    const columns = (await succeed('FARMER_DASHBOARD_LAST_ALL', { ...fields, form: 'columns' }, tokens.owner)) as Record<string, unknown>[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((v) => 'detailData' in v && !('columns' in v))).toBe(true);
    expect(columns).toHaveLength(rows.length);
    expect(columns.every((v) => 'columns' in v && !('detailData' in v))).toBe(true);
  },
  FARMER_NOTIFICATION_ONE_EDIT: async () => {
    await seedAlert();
    await succeed('FARMER_NOTIFICATION_ONE_EDIT', { farm: 'farm-pro', item: JSON.stringify({ _id: ALERT_ID }), status: '2' }, tokens.owner);
  },
  FARMER_NOTIFICATION_DETAIL: async () => {
    await seedAlert();
    // Both answers: no storage held the milk then, and the storage that did.
    const none = (await succeed('FARMER_NOTIFICATION_DETAIL', { farm: 'farm-pro', item: JSON.stringify({ _id: EARLY_ALERT_ID }) }, tokens.owner)) as { _id: unknown };
    expect(none._id).toBeNull();
    const held = (await succeed('FARMER_NOTIFICATION_DETAIL', { farm: 'farm-pro', item: JSON.stringify({ _id: ALERT_ID }) }, tokens.owner)) as { activity?: { kind: string } };
    expect(held.activity?.kind).toBe('storage');
  },
  // A vat whose controller does not answer: a clear result after 5 s (alerts-settings-device.test.ts plays the unit).
  USER_SETTING_ALERT_SET_AUTO: async () => {
    await succeed('USER_SETTING_ALERT_SET_AUTO', { farm: 'farm-auto', vat: JSON.stringify({ _id: 'dev-fon50412-2', pro_cip_cycle: 4 }) }, tokens.owner);
  },
  ORGANIZATION_DELETE: async () => {
    const name = `Conformance ${process.pid}`;
    await succeed('ORGANIZATION_ADD', { organization_id: 'org-ngata', name, tag: 'Branch', contact: '', address: '', email: '', phone: '' }, tokens.owner);
    const list = (await succeed('ORGANIZATION_LIST', { organization_id: 'org-ngata' }, tokens.owner)) as unknown;
    const id = findIdByName(list, name);
    expect(id, 'the new sub-organization in ORGANIZATION_LIST').toBeTruthy();
    await succeed('ORGANIZATION_DELETE', { _id: id as string }, tokens.owner);
  },
  ORGANIZATION_USER_UNLINK: async () => {
    // Only a person with a verified email can be added.
    const member = await verifiedAccount();
    await succeed('ORGANIZATION_USER_ADD', { organization_id: 'org-ngata', email: member.email }, tokens.owner);
    await succeed('ORGANIZATION_USER_UNLINK', { organization_id: 'org-ngata', user_id: String(decodeJwt(member.token).sub) }, tokens.owner);
  },
  PUSH_ACKNOWLEDGE: async () => {
    // The token a push carries: signed by the notifier with the stack's VAPID key, for a stored alert of a farm the user is linked to.
    await seedAlert();
    const vapid = localVapidKeys(join(stack.dataDir, 'push', 'vapid.json'));
    const claims = { farm_id: 'farm-pro', alert_id: ALERT_ID, user_id: sampleContext.subOf('owner'), exp: Math.floor(Date.now() / 1000) + 3600 };
    await succeed('PUSH_ACKNOWLEDGE', { token: signAckToken(vapidPrivateKey(vapid.publicKey, vapid.privateKey), claims) });
  },
};
RECIPES.USER_PROFILE_VERIFY_CHECK_EMAIL = RECIPES.USER_RESET_PASSWORD as () => Promise<void>;
RECIPES.USER_AUTHENTICATOR_CONFIRM_SEND = RECIPES.USER_AUTHENTICATOR_CONFIRM as () => Promise<void>;

/** The first `_id` beside a `name` anywhere in an answer (the organization tree). */
const findIdByName = (value: unknown, name: string): string | undefined => {
  if (Array.isArray(value)) return value.map((v) => findIdByName(v, name)).find(Boolean);
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (o.name === name && typeof o._id === 'string') return o._id;
    return Object.values(o).map((v) => findIdByName(v, name)).find(Boolean);
  }
  return undefined;
};

const ALERT_ID = 'conformance-301';
const EARLY_ALERT_ID = 'conformance-early';
let alertSeeded = false;
/** An alert on farm-pro's vat 1 raised while a storage held the milk, and one before any storage. */
const seedAlert = async () => {
  if (alertSeeded) return;
  alertSeeded = true;
  const alerts = dynamoAlertsRepository(createDocumentClient(), stack.facts.dynamodb.alertsTable);
  const readings = dynamoReadingsRepository(createDocumentClient(), stack.facts.dynamodb.readingsTable);
  const point = (published_at: string) => ({ published_at, milk_volume: 3000, temp1: 9, temp2: 12, temp3: 14 });
  await readings.putActivity({ kind: 'storage', start: point('2026-01-19T20:00:00.000Z'), end: point('2026-01-20T05:00:00.000Z'), device_id: 'dev-31245-1', farm_id: 'farm-pro' }, 1);
  const device = { _id: 'dev-31245-1', name: 'vm-31245-1', vat_number: 1 };
  for (const [_id, published_at] of [[ALERT_ID, '2026-01-20T02:00:00.000Z'], [EARLY_ALERT_ID, '2020-01-01T02:00:00.000Z']] as const) {
    await alerts.raise({ _id, farm_id: 'farm-pro', type: 301, status: 1, data: { published_at, temp1: 9, milk_volume: 3000, agitator_status: 0 }, device, created_at: new Date().toISOString() }, false);
  }
};

/** A caller the rule lets in: nobody for a public action, else the demo Admin (every rule lets Admin in). */
const callerFor = (c: Contract): string | undefined => (c.access.kind === 'public' ? undefined : tokens.Admin);

describe('every answer conforms to docs/openapi.json', () => {
  it('validates a 2xx answer of every action that has one', async () => {
    for (const c of ALL_CONTRACTS) {
      if (validated.has(keyOf(c))) continue;
      const recipe = RECIPES[c.type];
      if (recipe) {
        await recipe();
        continue;
      }
      const sample = sampleOf(c);
      if (!sample) continue;
      await succeed(c.type, sample.fields(), callerFor(c), c.path);
    }
    expect(violations).toEqual([]);
  }, 300_000);

  it('leaves no action unvalidated', () => {
    const never = ALL_CONTRACTS.map(keyOf).filter((k) => !validated.has(k));
    expect(never, 'actions whose answers were never checked against docs/openapi.json').toEqual([]);
    expect(validated.size).toBe(ALL_CONTRACTS.length);
  });
});
