import { AdminAddUserToGroupCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import type { Access, Contract } from '../../shared/api/contract';
import { ALL_CONTRACTS } from '../../shared/api/contracts';
import { MSG_TOTP_REQUIRED, OPERATOR_GROUPS, TOTP_CLAIM } from '../../shared/roles';
import { DEMO_PASSWORD } from '../../local/seed/demo-data';
import { decodeJwt, signJwt, strangerKey } from '../support/jwt';
import { startTestStack } from '../support/local-stack';
import { openApiAnswerValidator } from '../support/openapi-answers';
import { sampleContext, sampleOf, SAMPLES, seedSampleReadings } from '../support/action-samples';

/**
 * The authorization matrix (issue "Action contracts"): every declared contract (shared/api/contracts.ts)
 * is called through the local API gateway as every kind of caller, and the status must be exactly
 * what its access rule says. A new action is covered the moment it is declared: a contract without
 * sample fields below fails the test. Then every field of every action is sent oversized and
 * wrong-typed: each must be a 422 and nothing may be stored.
 */

/** `unenrolled`: a member of every operator group with no authenticator app. */
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


let stack: Awaited<ReturnType<typeof startTestStack>>;
const tokens: Partial<Record<Caller, string>> = {};
/** A signed-in caller's user id (the token's sub). */
const subOf = (caller: Caller): string => String(decodeJwt(tokens[caller] as string).sub);
sampleContext.subOf = (caller) => subOf(caller as Caller);
sampleContext.pushOrigin = () => stack.facts.push;

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
  await seedSampleReadings(stack.facts.dynamodb.readingsTable);
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
