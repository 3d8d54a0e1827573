import { AdminAddUserToGroupCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoAlertsRepository } from '../../lambdas/adapters/dynamodb/alerts-repository';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import { dynamoInstallRepository } from '../../lambdas/adapters/dynamodb/installs-repository';
import { dynamoWatchmanRepository } from '../../lambdas/adapters/dynamodb/watchman-repository';
import { INGEST_PROBLEMS_PAGE, operatorFleetContracts as c, REJECTED_PAYLOAD_SHOWN, SEARCH_PAGE, type FleetSummary, type IngestProblems, type SearchHit } from '../../shared/api/actions/operator-fleet';
import { DEFAULT_TIME_ZONE } from '../../shared/api/actions/installer';
import { telemetryTopic } from '../../shared/telemetry/device-message';
import { localMonth } from '../../shared/time/local-day';
import { DEMO_UNIT_IMEIS } from '../../local/seed/demo-data';
import { startTestStack } from '../support/local-stack';
import { until } from '../support/until';

/** The operators' fleet overview and search on /api/admin/device, through the local stack (decisions 055, 056). */
let stack: Awaited<ReturnType<typeof startTestStack>>;
const tokens: Record<'admin' | 'installer' | 'farmer' | 'milkQuality' | 'westlands', string> = { admin: '', installer: '', farmer: '', milkQuality: '', westlands: '' };
let mq: MqttClient;

type Search = { hits: SearchHit[]; next: Partial<Record<SearchHit['kind'], string>> };
const post = (type: keyof typeof c, fields: Record<string, string>, token: string) => stack.post(c[type].path, { type, ...fields }, token);
const ok = async <T,>(type: keyof typeof c, fields: Record<string, string>, token = tokens.admin): Promise<T> => {
  const res = await post(type, fields, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as T;
};
const summary = (token = tokens.admin) => ok<FleetSummary>('FLEET_SUMMARY', {}, token);
const search = (q: string, token = tokens.admin, more: Record<string, string> = {}) => ok<Search>('OPERATOR_SEARCH', { q, ...more }, token);

beforeAll(async () => {
  stack = await startTestStack();
  const emails = { admin: 'admin@vatman.local', installer: 'installer@vatman.local', farmer: 'farmer@vatman.local', milkQuality: 'milkquality@vatman.local', westlands: 'westlands@vatman.local' };
  for (const [who, email] of Object.entries(emails)) tokens[who as keyof typeof tokens] = await stack.signIn(email);
  mq = await mqtt.connectAsync(stack.facts.mqtt, { clientId: 'operator-fleet-test' });
}, 180_000);
afterAll(async () => {
  await mq?.endAsync();
  await stack?.stop();
});

describe('who may call them', () => {
  it.each(['farmer', 'milkQuality', 'westlands'] as const)('refuses %s (403) both calls, before reading anything', async (who) => {
    expect((await post('FLEET_SUMMARY', {}, tokens[who])).status).toBe(403);
    expect((await post('OPERATOR_SEARCH', { q: '31245' }, tokens[who])).status).toBe(403);
  });

  it('shows an Admin without an authenticator-proven session a farmer\'s role, and refuses them both calls', async () => {
    const email = `unenrolled-admin-${process.pid}@vatman.local`;
    const password = 'Unenrolled-pass-1';
    const user = JSON.stringify({ firstName: 'Un', lastName: 'Enrolled', email, phone: '+64211230000', password });
    expect((await stack.post('/api/user', { type: 'USER_SIGN_UP', gRecaptchaResponse: '', user })).status).toBe(200);
    const { cognito } = stack.facts;
    const idp = new CognitoIdentityProviderClient({ endpoint: cognito.endpoint, region: cognito.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    await idp.send(new AdminAddUserToGroupCommand({ UserPoolId: cognito.userPoolId, Username: email, GroupName: 'Admin' }));
    const token = await stack.signIn(email, password);
    // The menus follow this role: an operator's only where the server would also act as one.
    const me = await stack.post('/api/user', { type: 'USER_ONE_GET_BY_TOKEN' }, token);
    expect((me.body as { user: { role: string } }).user.role).toBe('User');
    expect((await post('FLEET_SUMMARY', {}, token)).status).toBe(403);
    expect((await post('OPERATOR_SEARCH', { q: '31245' }, token)).status).toBe(403);
    const enrolled = await stack.post('/api/user', { type: 'USER_ONE_GET_BY_TOKEN' }, tokens.admin);
    expect((enrolled.body as { user: { role: string } }).user.role).toBe('Admin');
  });

  it('answers Admin and Installer', async () => {
    expect((await summary(tokens.installer)).units).toEqual((await summary()).units);
    expect((await search('31245', tokens.installer)).hits[0]).toMatchObject({ kind: 'farm', key: '31245' });
  });
});

describe('FLEET_SUMMARY', () => {
  it('counts units by last message from the seen index: a unit that reports leaves the silent ones', async () => {
    const before = await summary();
    expect(before.units.reporting + before.units.silent).toBe(10);
    expect(before.units.oldest.length).toBeGreaterThan(0);
    const name = 'vm-31245-1';
    await mq.publishAsync(telemetryTopic(name), JSON.stringify({ published_at: new Date(Date.now() - 60_000).toISOString(), radar_distance: 1000, temp1: 4 }), { qos: 1 });
    const after = await until(async () => {
      const s = await summary();
      // The ingest counts its batch once the batch is done, just after the device's commit.
      return s.units.reporting === before.units.reporting + 1 && s.ingest.last_batch_at ? s : undefined;
    }, { timeoutMs: 15_000 });
    expect(after.units.silent).toBe(before.units.silent - 1);
    expect(after.units.oldest.map((u) => u.name)).not.toContain(name);
    // The ingest recorded the batch it handled: when, and how old its oldest record was.
    expect(after.ingest.last_batch_at).not.toBeNull();
    expect(after.ingest.iterator_age_ms).toBeGreaterThanOrEqual(0);
    // The ingest's dead-letter queue (the SQS stand-in) is empty so far.
    expect(after.ingest.dead_letters).toBe(0);
  });

  it('counts a raised alert once by type, naming its farm; a redelivered raise counts nothing', async () => {
    const alerts = dynamoAlertsRepository(createDocumentClient(), stack.facts.dynamodb.alertsTable);
    const at = new Date().toISOString();
    const n = {
      _id: `${at}~test-101`,
      farm_id: 'farm-pro',
      type: 101 as const,
      status: 1 as const,
      data: { published_at: at, temp1: 10.5, milk_volume: 2000, agitator_status: 1 as const },
      device: { _id: 'dev-31245-1', name: 'vm-31245-1', vat_number: 1 },
      created_at: at,
    };
    const before = (await summary()).alerts.by_type.find((t) => t.type === 101)?.count ?? 0;
    expect(await alerts.raise(n, false)).toBe('created');
    expect(await alerts.raise(n, false)).toBe('exists');
    const after = await summary();
    const row = after.alerts.by_type.find((t) => t.type === 101);
    expect(row?.count).toBe(before + 1);
    expect(row?.farms).toContainEqual({ _id: 'farm-pro', fonterra_id: '31245' });
  });

  it('counts the month\'s texts as they are reserved and released, against the spend alarm', async () => {
    const alerts = dynamoAlertsRepository(createDocumentClient(), stack.facts.dynamodb.alertsTable);
    const month = localMonth(new Date(), DEFAULT_TIME_ZONE);
    const before = (await summary()).sms;
    expect(before).toMatchObject({ month, alarm_usd: 50 });
    expect(await alerts.reserveSms('farm-pro', month, 120, 'fleet-test-1')).toBe(true);
    expect(await alerts.reserveSms('farm-auto', month, 120, 'fleet-test-2')).toBe(true);
    // A retry of the same delivery takes no second text, and counts none.
    expect(await alerts.reserveSms('farm-pro', month, 120, 'fleet-test-1')).toBe(true);
    await alerts.releaseSms('farm-auto', month, 'fleet-test-2');
    expect((await summary()).sms.sent).toBe(before.sent + 1);
  });

  it("counts this week's new installs and Watchman's open cases", async () => {
    const before = await summary();
    const now = new Date().toISOString();
    const installs = dynamoInstallRepository(createDocumentClient(), stack.facts.dynamodb.farmsTable);
    await installs.putEntry({ _id: 'fleet-test-install', created_at: now, updated_at: now, supply_number: '31245', installer_name: 'Test', imei: '352656100000029', result: 'Vat-Man installed', particle_id: 'p' });
    // An install check is not an install.
    await installs.putEntry({ _id: 'fleet-test-check', created_at: now, updated_at: now, supply_number: '31245', installer_name: 'Test', imei: '352656100000029', result: 'ok', particle_id: 'p', type: 'Check Online' });
    const watchman = dynamoWatchmanRepository(createDocumentClient(), stack.facts.dynamodb.farmsTable);
    await watchman.openCase({ farm_id: 'farm-pro', fonterra_id: '31245', timezone: DEFAULT_TIME_ZONE, vat: 1, device_id: 'dev-31245-1', check: 'signal', evidence: 'test', opened_at: now, closed_at: null });
    const after = await summary();
    expect(after.installs.count).toBe(before.installs.count + 1);
    expect(after.watchman.open_cases).toBe(before.watchman.open_cases + 1);
  });
});

describe('the ingest problems: dead letters and rejected messages (INGEST_PROBLEMS)', () => {
  const problems = (fields: Record<string, string> = {}, token = tokens.admin) => ok<IngestProblems>('INGEST_PROBLEMS', fields, token);
  const today = () => new Date().toISOString().slice(0, 10);

  it.each(['farmer', 'milkQuality', 'westlands'] as const)('refuses %s (403)', async (who) => {
    expect((await post('INGEST_PROBLEMS', {}, tokens[who])).status).toBe(403);
  });

  it('counts a batch the stream gave up in the dead-letter queue: FLEET_SUMMARY and the list read the queue', async () => {
    const before = (await summary()).ingest.dead_letters;
    // Every reading write fails: the ingest hands the batch back until the stream gives it up and
    // its on-failure destination names it on the dead-letter queue, as Lambda's does in AWS.
    await stack.dynamoFaults.failWritesTo(['R#']);
    try {
      await mq.publishAsync(telemetryTopic('vm-wes118-3'), JSON.stringify({ published_at: new Date(Date.now() - 30_000).toISOString(), radar_distance: 900, temp1: 4 }), { qos: 1 });
      const after = await until(async () => {
        const s = await summary();
        return s.ingest.dead_letters > before ? s : undefined;
      }, { timeoutMs: 40_000, everyMs: 250, what: 'the batch in the dead-letter queue' });
      expect(after.ingest.dead_letters).toBe(before + 1);
    } finally {
      await stack.dynamoFaults.failWritesTo([]);
    }
    expect((await problems({}, tokens.installer)).dead_letters).toBe(before + 1);
  }, 60_000);

  it("lists today's rejected messages a page at a time, with why each was refused and the start of its payload", async () => {
    const count = INGEST_PROBLEMS_PAGE + 3;
    const long = 'x'.repeat(REJECTED_PAYLOAD_SHOWN + 100);
    for (let i = 0; i < count; i += 1) await mq.publishAsync(telemetryTopic('vm-31245-1'), `not json ${i} ${long}`, { qos: 1 });
    const first = await until(async () => {
      const p = await problems();
      return p.next ? p : undefined;
    }, { timeoutMs: 30_000, everyMs: 250, what: 'a full page of rejected messages' });
    expect(first.day).toBe(today());
    expect(first.rejected).toHaveLength(INGEST_PROBLEMS_PAGE);
    expect(first.rejected[0]).toMatchObject({ topic: telemetryTopic('vm-31245-1'), reason: 'payload is not valid JSON' });
    expect(first.rejected[0]?.payload).toHaveLength(REJECTED_PAYLOAD_SHOWN);
    const all = await until(async () => {
      const second = await problems({ after: first.next as string });
      return first.rejected.length + second.rejected.length >= count ? second : undefined;
    }, { timeoutMs: 30_000, what: 'the second page' });
    expect(all.next).toBeNull();
    const payloads = new Set([...first.rejected, ...all.rejected].map((r) => r.payload.split(' ').slice(0, 3).join(' ')));
    expect(payloads.size).toBe(first.rejected.length + all.rejected.length);
  }, 60_000);

  it('a blank day means today; a day outside the kept 30 days or not a date is refused with its message', async () => {
    expect((await problems({ day: today() })).day).toBe(today());
    expect((await problems({ day: '', after: '' })).day).toBe(today());
    const old = await post('INGEST_PROBLEMS', { day: '2020-01-01' }, tokens.admin);
    expect(old.status).toBe(422);
    expect(JSON.stringify(old.body)).toContain('day must be within the last 30 days');
    const bad = await post('INGEST_PROBLEMS', { day: 'yesterday' }, tokens.admin);
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('day must be a date (YYYY-MM-DD)');
    const empty = await problems({ day: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10) });
    expect(empty.rejected).toEqual([]);
    expect(empty.next).toBeNull();
  });
});

describe('OPERATOR_SEARCH', () => {
  it('finds a farm by supply number (first), and by the start of its name', async () => {
    expect((await search('31245')).hits[0]).toMatchObject({ kind: 'farm', _id: 'farm-pro', key: '31245', label: 'Totara Downs' });
    expect((await search('totara d')).hits).toContainEqual(expect.objectContaining({ kind: 'farm', _id: 'farm-pro' }));
  });

  it("finds a unit's vats by its IMEI, and a device by its name", async () => {
    const byImei = await search(DEMO_UNIT_IMEIS['farm-pro'] as string);
    expect(byImei.hits.filter((h) => h.kind === 'device').map((h) => h._id)).toEqual(['dev-31245-1', 'dev-31245-2']);
    expect((await search('vm-31245-2')).hits).toEqual([expect.objectContaining({ kind: 'device', _id: 'dev-31245-2', detail: '31245 / Vat 2' })]);
  });

  it('finds a user by email for an Admin only', async () => {
    expect((await search('farmer@vatman.local')).hits).toContainEqual(expect.objectContaining({ kind: 'user', key: 'farmer@vatman.local' }));
    expect((await search('farmer@', tokens.admin)).hits.some((h) => h.kind === 'user')).toBe(true);
    expect((await search('farmer@vatman.local', tokens.installer)).hits.some((h) => h.kind === 'user')).toBe(false);
  });

  it('pages a kind with more matches than a page', async () => {
    const farms = dynamoFarmRepository(createDocumentClient(), stack.facts.dynamodb.farmsTable);
    for (let i = 0; i < SEARCH_PAGE + 3; i += 1) {
      await farms.putDevice({
        _id: `dev-page-${i}`,
        name: `pg-${String(i).padStart(2, '0')}`,
        farm_id: 'farm-pro',
        vat_number: 4,
        status: 1,
        vat_size: 5700,
        vat_max_height: 1500,
        vat_diameter: 2337,
        wedgeHeight: 0,
        vat_volume_offset: 0,
        vat_auto: false,
      });
    }
    const first = await search('pg-');
    expect(first.hits.map((h) => h.label)).toEqual(Array.from({ length: SEARCH_PAGE }, (_, i) => `pg-${String(i).padStart(2, '0')}`));
    expect(first.next.device).toBe('pg-09');
    const second = await search('pg-', tokens.admin, { kind: 'device', after: first.next.device as string });
    expect(second.hits.map((h) => h.label)).toEqual(['pg-10', 'pg-11', 'pg-12']);
    expect(second.next.device).toBeUndefined();
  });

  it('refuses text too short or too long with the message, and finds nothing for an unknown key', async () => {
    expect(await post('OPERATOR_SEARCH', { q: 'x' }, tokens.admin)).toMatchObject({ status: 422, body: { message: 'Enter at least 2 characters.' } });
    expect((await post('OPERATOR_SEARCH', { q: 'x'.repeat(101) }, tokens.admin)).status).toBe(422);
    expect((await search('no-such-thing-anywhere')).hits).toEqual([]);
  });
});
