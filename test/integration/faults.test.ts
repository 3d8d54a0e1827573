import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CreateThingCommand, IoTClient } from '@aws-sdk/client-iot';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoAlertSettingsRepository } from '../../lambdas/adapters/dynamodb/alert-settings-repository';
import { dynamoAlertsRepository } from '../../lambdas/adapters/dynamodb/alerts-repository';
import type { AlertsRepository, Delivery } from '../../lambdas/ports/alerts';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import type { FarmRepository } from '../../lambdas/ports/farms';
import { dynamoMilkingWindowsRepository } from '../../lambdas/adapters/dynamodb/milking-windows-repository';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import type { ReadingsRepository } from '../../lambdas/ports/readings';
import { alertNotifierFromEnv } from '../../lambdas/alerts/deps';
import type { Notifier } from '../../lambdas/alerts/notifier';
import { MAX_ATTEMPTS, RETRY_BACKOFF_MS } from '../../lambdas/alerts/notifier-deps';
import { makeAlertProcessor } from '../../lambdas/alerts/processor';
import { makeIngest } from '../../lambdas/ingest/ingest';
import { makeStreamHandler } from '../../lambdas/ingest/stream-handler';
import { INGEST_STREAM } from '../../lambdas/ports/function-settings';
import { createLogger } from '../../lambdas/lib/logger';
import { deadLetterLines, deadLetterRecords, redrive } from '../../local/replay-dlq';
import { DEMO_FARMS, DEMO_UNIT_IMEIS } from '../../local/seed/demo-data';
import { ensureTables, startDynamo, type DynamoStandIn } from '../../local/stand-ins/dynamodb';
import { startKinesisStream } from '../../local/stand-ins/kinesis-stream';
import type { OutboxMessage } from '../../local/stand-ins/sns-outbox';
import type { Notification } from '../../shared/alerts/types';
import { telemetryTopic, type TelemetryMessageInput } from '../../shared/telemetry/device-message';
import { dayOf } from '../../shared/time/utc';
import { unitThingName } from '../../shared/entities/install';
import { camelOf } from '../../shared/watchman/settings';
import { freePort } from '../support/free-port';
import { installFaults, type InstallAnswer } from '../support/install-faults';
import { startTestStack } from '../support/local-stack';
import { chillerOffTrace, shuffled, storedState, trace } from '../support/telemetry';

/*
 * Fault injection on the local stack's stand-ins (dynalite, the Kinesis stream with its retries
 * and on-failure destination) with the real SDK, the real ingest and the real alert engine. Every
 * case runs a clean device in the same test and compares what the faulty run stored with it: the
 * readings, day buckets, activities, ingest state and alerts, with the device's id taken out.
 */

// ---- shared setup (the delivery cases use it too) ----
let dynamo: DynamoStandIn;
let farms: FarmRepository;
let readings: ReadingsRepository;
let alerts: AlertsRepository;
let tables: Record<string, string>;
const doc = () => createDocumentClient({ DYNAMODB_ENDPOINT: dynamo.endpoint, AWS_REGION: 'us-east-1' });
const log = createLogger({}, 'error');

beforeAll(async () => {
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
  dynamo = await startDynamo(await freePort());
  tables = await ensureTables(new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1' }), 'faults');
  farms = dynamoFarmRepository(doc(), tables.FARMS_TABLE as string);
  readings = dynamoReadingsRepository(doc(), tables.READINGS_TABLE as string);
  alerts = dynamoAlertsRepository(doc(), tables.ALERTS_TABLE as string);
});
afterAll(async () => dynamo?.stop());

/** A Pro farm with one 21,500 L vat of its own: `vm-<id>` on `farm-<id>`. */
const addVat = async (id: string) => {
  const base = DEMO_FARMS[1];
  if (!base) throw new Error('no demo farm');
  await farms.putFarm({ ...base, _id: `farm-${id}`, fonterra_id: `F${id}`.slice(0, 12) });
  await farms.putDevice({ _id: id, name: `vm-${id}`, farm_id: `farm-${id}`, vat_number: 1, status: 1, vat_size: 21_500, vat_max_height: 3500, vat_diameter: 2875, wedgeHeight: 60, vat_volume_offset: 0, vat_auto: false });
};

/** The notifier's place in the alert processor: delivery is not what these ingest cases look at (it has its own cases). */
const quietNotifier = { deliver: async () => 'done', retryPending: async () => 0 } as unknown as Notifier;

type Ports = { farms: FarmRepository; readings: ReadingsRepository; alerts: AlertsRepository };
/** An ingest container as the ingest Lambda wires it (stream handler, ingest, alert engine) over these ports. */
const container = (ports: Ports = { farms, readings, alerts }) => {
  const settings = dynamoAlertSettingsRepository(doc(), tables.FARMS_TABLE as string);
  const milkingWindows = dynamoMilkingWindowsRepository(doc(), tables.FARMS_TABLE as string);
  const processor = makeAlertProcessor({ farms: ports.farms, settings, milkingWindows, alerts: ports.alerts, notifier: quietNotifier, now: () => new Date(), log });
  return makeStreamHandler(makeIngest({ farms: ports.farms, readings: ports.readings, now: () => new Date(), log, onReadings: processor.onReadings }), log);
};

/** The ingest stream (2 shards, Lambda's retries and on-failure destination) consumed by `consumer(shard)`. */
const ingestStream = (consumer: (shard: number) => ReturnType<typeof container>, batchSize = 50) => {
  let deadLetters = '';
  let largestBatch = 0;
  const stream = startKinesisStream({
    streamName: 'faults-ingest',
    shards: 2,
    batchSize,
    retryAttempts: 5,
    retryDelayMs: () => 20,
    consume: (shard, event) => {
      largestBatch = Math.max(largestBatch, event.Records.length);
      return consumer(shard)(event);
    },
    onFailure: ({ shard, records }) => (deadLetters += deadLetterLines(shard, records)),
  });
  const send = (thing: string, messages: readonly TelemetryMessageInput[]) => {
    for (const m of messages) stream.put(thing, Buffer.from(JSON.stringify({ payload: Buffer.from(JSON.stringify(m)).toString('base64'), topic: telemetryTopic(thing), received_at: Date.now() })));
  };
  return { stream, send, deadLetters: () => deadLetters, largestBatch: () => largestBatch };
};

/** About six hours across a UTC midnight: every kind of activity, then a chiller left off (alerts 102 and 101). */
const MIDNIGHT = Date.parse(`${dayOf(new Date(Date.now() - 86_400_000).toISOString())}T00:00:00.000Z`);
const START = MIDNIGHT - 95 * 60_000;
const MESSAGES: TelemetryMessageInput[] = [...trace(START, 200), ...chillerOffTrace((m) => new Date(START + (200 + m) * 60_000).toISOString())];
const FROM = MESSAGES[0]!.published_at;
const TO = MESSAGES.at(-1)!.published_at;

/** What a device's run left: stored state, day buckets, activities and alerts, its ids taken out. */
const outcome = async (id: string) => {
  const buckets = await doc().send(new QueryCommand({ TableName: tables.READINGS_TABLE, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': `B#${id}` } }));
  const stored = await alerts.list(`farm-${id}`);
  const state = await storedState(farms, readings, id, FROM, TO);
  return {
    ...state,
    activities: state.activities.map(({ farm_id: _f, ...a }) => a),
    buckets: (buckets.Items ?? []).map((b) => ({ day: b.sk as string, count: b.count as number })),
    alerts: stored.map((n) => ({ type: n.type, status: n.status, data: n.data, quality: n.quality, detail: n.detail })).sort((a, b) => `${a.data.published_at}${a.type}`.localeCompare(`${b.data.published_at}${b.type}`)),
  };
};

/** A clean run: each message once, in order, one healthy container per shard. */
const cleanRun = async (id: string) => {
  await addVat(id);
  const healthy = [container(), container()];
  const { stream, send } = ingestStream((shard) => healthy[shard] as ReturnType<typeof container>);
  send(`vm-${id}`, MESSAGES);
  await stream.drained();
  await stream.stop();
  const clean = await outcome(id);
  // The trace is worth comparing: closed days compacted, activities, alerts.
  expect(clean.buckets.length).toBeGreaterThan(0);
  expect(clean.activities.length).toBeGreaterThan(3);
  expect(clean.alerts.map((a) => a.type)).toEqual(expect.arrayContaining([101, 102]));
  expect(clean.ingest?.n).toBe(MESSAGES.length);
  return clean;
};

class Killed extends Error {
  constructor() {
    super('container killed');
  }
}

/**
 * Ports that die at a chosen point, as a Lambda container killed there (timeout, out of memory):
 * from then on every call of that container fails. `point` names the method, before or after it
 * runs, and which call (the arguments) kills.
 */
const killable = (point: { target: 'farms' | 'readings' | 'alerts'; method: string; when: 'before' | 'after'; match: (args: unknown[]) => boolean }) => {
  const state = { dead: false, killed: false };
  const wrap = <T extends object>(name: string, real: T): T =>
    new Proxy(real, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          if (state.dead) throw new Killed();
          const hit = !state.killed && name === point.target && key === point.method && point.match(args);
          if (hit && point.when === 'before') {
            state.dead = state.killed = true;
            throw new Killed();
          }
          const result = (await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args)) as unknown;
          if (state.dead) throw new Killed();
          if (hit) {
            state.dead = state.killed = true;
            throw new Killed();
          }
          return result;
        };
      },
    });
  return { state, ports: { farms: wrap('farms', farms), readings: wrap('readings', readings), alerts: wrap('alerts', alerts) } };
};

describe('ingest faults', () => {
  /** Minutes 50-80 of the trace (a milking, an agitator stop) held back and sent after the rest: late readings, a replay. */
  const held = (m: TelemetryMessageInput) => m.published_at >= new Date(START + 50 * 60_000).toISOString() && m.published_at < new Date(START + 80 * 60_000).toISOString();
  const isIntent = (args: unknown[]) => (args[1] as { state: { replay?: unknown } }).state.replay !== undefined;

  const killPoints = [
    { name: 'after the late readings are written', late: true, point: { target: 'readings', method: 'writeReadings', when: 'after', match: () => true } },
    // The replay reads from an hour ('YYYY-MM-DDTHH'); the alert catch-up of a cold container reads from an instant.
    { name: 'during the replay', late: true, point: { target: 'readings', method: 'readPartitions', when: 'after', match: (a: unknown[]) => String(a[1]).length === 13 } },
    { name: 'before the replay commit', late: true, point: { target: 'farms', method: 'commitIngest', when: 'before', match: (a: unknown[]) => !isIntent(a) } },
    // The engine's commit that raises an alert (its outbox holds it): the readings that raise it are committed by the ingest already.
    { name: 'after the commit, before the alert engine ran', late: false, point: { target: 'alerts', method: 'putEngine', when: 'before', match: (a: unknown[]) => (a[1] as { outbox: unknown[] }).outbox.length > 0 } },
  ] as const;

  /**
   * The ingest stream with one container per shard; while armed, the next batch's container is one
   * that dies at `point`, and a killed one is replaced by a cold one (no warm state) for the retry.
   */
  const killingStream = (point: Parameters<typeof killable>[0], armedAtStart: boolean, batchSize?: number) => {
    let armed = armedAtStart;
    let killer = killable(point);
    const containers = [container(), container()];
    const stream = ingestStream((shard) => {
      if (armed) {
        armed = false;
        killer = killable(point);
        containers[shard] = container(killer.ports);
      } else if (killer.state.dead) containers[shard] = container();
      return containers[shard] as ReturnType<typeof container>;
    }, batchSize);
    return { ...stream, arm: () => void (armed = true), killer: () => killer };
  };

  it.each(killPoints)('a container killed $name: the redelivery ends where a clean run ends', async ({ name, late, point }) => {
    const id = `kill-${killPoints.findIndex((k) => k.name === name)}`;
    const clean = await cleanRun(`${id}-clean`);
    await addVat(id);
    const { stream, send, deadLetters, arm, killer } = killingStream(point, !late);
    send(`vm-${id}`, late ? MESSAGES.filter((m) => !held(m)) : MESSAGES);
    await stream.drained();
    if (late) {
      arm();
      send(`vm-${id}`, MESSAGES.filter(held));
      await stream.drained();
    }
    await stream.stop();
    expect(killer().state.killed).toBe(true);
    expect(deadLetters()).toBe('');
    // Held readings arrive late (no alert evaluation for them), so the comparison is with a clean
    // run of the same delivery when they were held; they lie outside the alert stretch.
    expect(await outcome(id)).toEqual(clean);
  });

  it('a backlog of twelve devices in batches of the real size (INGEST_STREAM), a container killed mid-batch: every device ends where a clean run ends', async () => {
    const clean = await cleanRun('backlog-clean');
    const ids = Array.from({ length: 12 }, (_, i) => `backlog-${i}`);
    for (const id of ids) await addVat(id);
    // The first batch's container dies at an alert-raising engine commit (one device's readings
    // committed by the ingest, others not yet handled); the retry gets a cold container.
    const { stream, send, deadLetters, largestBatch, killer } = killingStream(killPoints[3].point, true, INGEST_STREAM.batchSize);
    // A backlog: every device's whole trace is on the stream, minute by minute as the fleet sent
    // it, before the first batch is taken (put is synchronous), so each shard's batch holds
    // several devices' records, as many as the batch size and the payload limit let it.
    for (const m of MESSAGES) for (const id of ids) send(`vm-${id}`, [m]);
    await stream.drained();
    await stream.stop();
    expect(killer().state.killed).toBe(true);
    // Each shard's backlog (about 1,500 records, 2 MB of event) fits in one batch of the real
    // settings: up to INGEST_STREAM.batchSize records within Lambda's 6 MB payload.
    expect(largestBatch()).toBeGreaterThan(1_000);
    expect(deadLetters()).toBe('');
    for (const id of ids) expect(await outcome(id), id).toEqual(clean);
  }, 120_000);

  it('DynamoDB refusing 30 % of writes: retries and a re-drive of the dead-lettered batches lose nothing', async () => {
    const clean = await cleanRun('throttle-clean');
    await addVat('throttle');
    const healthy = [container(), container()];
    const { stream, send, deadLetters } = ingestStream((shard) => healthy[shard] as ReturnType<typeof container>, 40);
    await dynamo.throttleWrites(0.3);
    try {
      send('vm-throttle', MESSAGES);
      await stream.drained();
    } finally {
      await dynamo.throttleWrites(0);
    }
    // What the stream gave up on after its retries is re-driven from the dead letters (npm run replay-dlq).
    const dead = deadLetterRecords(deadLetters());
    expect(redrive(dead, (key, data) => stream.put(key, data))).toBe(dead.length);
    await stream.drained();
    await stream.stop();
    expect(await outcome('throttle')).toEqual(clean);
  });

  it('the same telemetry delivered twice and out of order ends where a clean run ends', async () => {
    const clean = await cleanRun('twice-clean');
    await addVat('twice');
    const healthy = [container(), container()];
    const { stream, send, deadLetters } = ingestStream((shard) => healthy[shard] as ReturnType<typeof container>, 30);
    // Out of order within the first 100 minutes (a late reading is old news to the alert engine,
    // so the stretch holds no alert condition), then all of it again, shuffled.
    send('vm-twice', [...shuffled(MESSAGES.slice(0, 100), 7), ...MESSAGES.slice(100)]);
    await stream.drained();
    send('vm-twice', shuffled(MESSAGES, 3));
    await stream.drained();
    await stream.stop();
    expect(deadLetters()).toBe('');
    expect(await outcome('twice')).toEqual(clean);
  });
});

/** Cases 3 and 5 (alert delivery), on a whole local stack with the SNS outbox. */
describe('delivery faults', () => {
  /**
   * Fault injection on the local stack: the real notifier, dynalite and the SNS outbox,
   * with a clock the test moves (no waiting). Every case asserts: each alert delivered exactly once
   * per channel the user chose, and nothing marked delivered that was not.
   */
  let stack: Awaited<ReturnType<typeof startTestStack>>;

  beforeAll(async () => {
    stack = await startTestStack(undefined, undefined, { dairySync: false });
    // These cases are about each alert's first delivery: the farm's users have escalation off, so
    // no later re-send of an unread alert (alerts-escalation.test.ts) joins the queue.
    const settings = dynamoAlertSettingsRepository(createDocumentClient(), process.env.FARMS_TABLE as string);
    for (const id of await settings.listUserIdsOfFarm('farm-pro')) await settings.putEscalation(id, { minutes: null, organization: false });
  });
  afterAll(async () => {
    stack?.sns.setDown(false);
    await stack?.stop();
  });

  const alerts = () => dynamoAlertsRepository(createDocumentClient(), process.env.ALERTS_TABLE as string);
  const farms = () => dynamoFarmRepository(createDocumentClient(), process.env.FARMS_TABLE as string);
  const outbox = async () => (await (await fetch(stack.facts.sns)).json()) as OutboxMessage[];

  /** A clock the test moves: the notifiers' `now`. */
  const clock = { at: Date.now() };
  const now = () => new Date(clock.at);
  const advance = (ms: number) => {
    clock.at += ms;
  };
  const notifier = () => alertNotifierFromEnv(createLogger({}, 'error'), process.env, undefined, now);

  /** Totara Downs (farm-pro): the demo farmer Aroha gets texts and email (all preferences on, phone verified, address confirmed). */
  const FARM = 'farm-pro';
  const DEVICE = { _id: 'dev-31245-1', name: 'vm-31245-1', vat_number: 1 };
  /** Each case's alerts, told apart in the outbox by their milk volume (in the text and the email). */
  let volume = 5_000;
  const raiseAlerts = async (count: number): Promise<{ n: Notification; marker: string }[]> => {
    const out: { n: Notification; marker: string }[] = [];
    for (let i = 0; i < count; i += 1) {
      // Texts give the volume to 10 L.
      volume += 10;
      const published = new Date(clock.at - (i + 1) * 60_000).toISOString();
      const n: Notification = {
        _id: `${published}~${DEVICE._id}~102`,
        farm_id: FARM,
        type: 102,
        status: 1,
        data: { published_at: published, temp1: 8.4, milk_volume: volume, agitator_status: 1 },
        device: DEVICE,
        created_at: now().toISOString(),
      };
      expect(await alerts().raise(n, false)).toBe('created');
      out.push({ n, marker: `${volume} L` });
    }
    return out;
  };

  /** The recipients and channels of farm-pro's alerts: every linked user but the showroom account, on both channels. */
  const expectedChannels = async () => {
    const ids = await dynamoAlertSettingsRepository(createDocumentClient(), process.env.FARMS_TABLE as string).listUserIdsOfFarm(FARM);
    const users = await Promise.all(ids.map((id) => farms().getUser(id)));
    return users.filter((u) => u && !u.is_demo).flatMap((u) => [`${u?.phone}|sms`, `${u?.email}|email`]).sort();
  };

  /** Exactly once per channel per user, in the outbox and in the queue; nothing marked sent that the outbox lacks. */
  const expectDeliveredOnce = async (raised: { n: Notification; marker: string }[]) => {
    const messages = (await outbox()).filter((m) => m.subject !== 'AWS Notification - Subscription Confirmation');
    const wanted = await expectedChannels();
    expect(wanted.length).toBeGreaterThan(0);
    for (const { n, marker } of raised) {
      const got = messages.filter((m) => m.message.includes(marker)).map((m) => `${m.to}|${m.channel}`).sort();
      expect(got, n._id).toEqual(wanted);
      const deliveries: Delivery[] = await alerts().listDeliveries(FARM, n._id);
      expect(deliveries.map((d) => d.state)).toEqual(deliveries.map(() => 'sent'));
      expect(deliveries).toHaveLength(wanted.length);
    }
  };

  /** Runs the queue as the sweep does until nothing is due, moving the clock a minute a run. */
  const drain = async (maxMinutes: number) => {
    for (let m = 0; m < maxMinutes; m += 1) {
      await notifier().retryPending();
      if ((await alerts().listDueDeliveries(new Date(clock.at + 24 * 60 * 60_000), 10)).length === 0) return;
      advance(60_000);
    }
  };

  describe('the cases', () => {
    it('(3) SNS down for 10 minutes, then back: nothing is marked sent while it is down, then each alert goes out once per channel', async () => {
      const raised = await raiseAlerts(3);
      const before = (await outbox()).length;
      stack.sns.setDown(true);
      // The run that raised them tries at once …
      for (const { n } of raised) expect(await notifier().deliver({ ...n, delivery_state: 'pending', delivered: [] })).toBe('pending');
      // … and the sweep every minute for the ten minutes SNS is down.
      for (let m = 0; m < 10; m += 1) {
        advance(60_000);
        expect(await notifier().retryPending()).toBe(0);
      }
      expect((await outbox()).length).toBe(before);
      for (const { n } of raised) {
        const ds = await alerts().listDeliveries(FARM, n._id);
        expect(ds.length).toBeGreaterThan(0);
        // Retried with backoff, never marked sent, not yet given up.
        for (const d of ds) {
          expect(d.state).toBe('pending');
          expect(d.attempts).toBeGreaterThan(1);
          expect(d.last_error).toBeTruthy();
        }
      }
      stack.sns.setDown(false);
      await drain(60);
      await expectDeliveredOnce(raised);
    });

    it('SNS down past the last retry: each delivery is a dead letter (never marked sent, nothing more sent after), listed for Admins', async () => {
      const [raised] = await raiseAlerts(1);
      if (!raised) throw new Error('no alert');
      stack.sns.setDown(true);
      try {
        await notifier().deliver({ ...raised.n, delivery_state: 'pending', delivered: [] });
        for (const wait of RETRY_BACKOFF_MS) {
          advance(wait);
          await notifier().retryPending();
        }
      } finally {
        stack.sns.setDown(false);
      }
      const ds = await alerts().listDeliveries(FARM, raised.n._id);
      expect(ds.map((d) => `${d.channel}:${d.state}:${d.attempts}`).sort()).toEqual([`email:dead:${MAX_ATTEMPTS}`, `sms:dead:${MAX_ATTEMPTS}`]);
      expect((await outbox()).filter((m) => m.message.includes(raised.marker))).toEqual([]);
      // Nothing left to retry, and the operators see them.
      await drain(5);
      expect((await outbox()).filter((m) => m.message.includes(raised.marker))).toEqual([]);
      const admin = await stack.signIn('admin@vatman.local');
      const res = await stack.post('/api/admin/farm', { type: 'FARM_DELIVERY_DEAD_LETTERS' }, admin);
      expect(res.status).toBe(200);
      const mine = (res.body as { alert_id: string; channel: string; attempts: number; last_error: string; recipient: string }[]).filter((d) => d.alert_id === raised.n._id);
      expect(mine.map((d) => d.channel).sort()).toEqual(['email', 'sms']);
      for (const d of mine) {
        expect(d.attempts).toBe(MAX_ATTEMPTS);
        expect(d.last_error).toBeTruthy();
      }
      expect(mine.find((d) => d.channel === 'sms')?.recipient).toBe('+64211234501');
    });

    it('(5) two sweeps at once: each alert is delivered once per channel', async () => {
      const raised = await raiseAlerts(4);
      // Raised but not delivered (the raising run crashed): both sweeps plan and send the same alerts at the same time.
      const [a, b] = [notifier(), notifier()];
      const counts = await Promise.all([a.retryPending(), b.retryPending(), a.retryPending()]);
      const wanted = await expectedChannels();
      // No more sends than deliveries (the stack's own sweep may take some of them too).
      expect(counts.reduce((x, y) => x + y, 0)).toBeLessThanOrEqual(raised.length * wanted.length);
      await expectDeliveredOnce(raised);
    });
  });
});

describe('operator change faults', () => {
  /**
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

describe('install faults', () => {
  let f: Awaited<ReturnType<typeof installFaults>>;
  beforeAll(async () => {
    f = await installFaults(doc, tables.FARMS_TABLE as string);
  });
  afterAll(async () => f?.stop());

  /** One complete install and nothing else: the thing with exactly one active certificate (the one answered), its farm, vats, unit, one log entry. */
  const complete = async (imei: string, supply: string, answer: InstallAnswer | undefined, what: string) => {
    expect(answer, what).toMatchObject({ success: true });
    const left = await f.leftOf(imei, supply);
    expect(left.activeOnThing, what).toEqual([answer?.download?.certificateId]);
    expect(left.attached, what).toEqual([answer?.download?.certificateId]);
    expect(left.unit?.certificate_id, what).toBe(answer?.download?.certificateId);
    expect({ farm: left.farm, devices: left.devices, logged: left.logged, run: left.run?.state }, what).toEqual({ farm: true, devices: 2, logged: 1, run: 'done' });
    expect(f.orphans(), what).toEqual([]);
  };
  const nothingLeft = async (imei: string, supply: string, what: string) => {
    expect(await f.leftOf(imei, supply), what).toEqual({ thing: false, activeOnThing: [], attached: [], farm: false, devices: 0, unit: undefined, run: undefined, logged: 0 });
    expect(f.orphans(), what).toEqual([]);
  };

  it('a crash at each New Install step, then the retry with the same requestId: one complete install, nothing orphaned', async () => {
    const clean = await f.install('352656170000000', '81000', 'clean-run-0000');
    await complete('352656170000000', '81000', clean.answer, 'clean');
    expect(clean.calls).toBeGreaterThan(15);
    for (let k = 1; k <= clean.calls; k += 1) {
      const imei = `3526561710${String(k).padStart(5, '0')}`;
      const supply = `82${String(k).padStart(3, '0')}`;
      const crashed = await f.install(imei, supply, `request-${k}-crash`, k);
      expect(crashed.killed, `crash after call ${k}`).toBe(true);
      f.leasesEnd();
      const retry = await f.install(imei, supply, `request-${k}-crash`);
      await complete(imei, supply, retry.answer, `crash after call ${k}, then the retry`);
    }
  }, 300_000);

  it('a crash at each New Install step and no retry: the reconciler undoes it, or finishes it past the unit record', async () => {
    for (let k = 1; k <= 26; k += 1) {
      const imei = `3526561720${String(k).padStart(5, '0')}`;
      const supply = `83${String(k).padStart(3, '0')}`;
      await f.install(imei, supply, `request-${k}-alone`, k);
      f.leasesEnd();
      const outcome = await f.reconcile();
      expect(outcome.left, `crash after call ${k}`).toBe(0);
      const left = await f.leftOf(imei, supply);
      if (left.unit) {
        // Past the commit point: the install stands (its key lost: REISSUE_CERTIFICATE gives a new one).
        expect(left.activeOnThing, `crash after call ${k}`).toEqual([left.unit.certificate_id]);
        expect({ farm: left.farm, devices: left.devices, logged: left.logged, run: left.run?.state }).toEqual({ farm: true, devices: 2, logged: 1, run: 'done' });
        expect(f.orphans()).toEqual([]);
      } else await nothingLeft(imei, supply, `crash after call ${k}, then the reconciler`);
    }
  }, 300_000);

  it('two concurrent installs of one unit, or of one farm: one winner, nothing left of the other', async () => {
    const [a, b] = await Promise.allSettled([f.install('352656173000001', '84001', 'same-unit-a'), f.install('352656173000001', '84002', 'same-unit-b')]);
    const won = [a, b].filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    const lost = [a, b].find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(String(lost.reason.message)).toMatch(/IMEI 352656173000001 is (already installed|being installed by another submission)/);
    const winner = (won[0] as PromiseFulfilledResult<{ answer: InstallAnswer }>).value.answer;
    const winnerSupply = a.status === 'fulfilled' ? '84001' : '84002';
    await complete('352656173000001', winnerSupply, winner, 'the winner');
    expect((await f.leftOf('352656173000001', winnerSupply === '84001' ? '84002' : '84001')).farm).toBe(false);

    const [c, d] = await Promise.allSettled([f.install('352656173000002', '84003', 'same-farm-c'), f.install('352656173000003', '84003', 'same-farm-d')]);
    expect([c, d].filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(String(([c, d].find((r) => r.status === 'rejected') as PromiseRejectedResult).reason.message)).toMatch(/Supply number 84003 is already installed/);
    const [winImei, loseImei] = c.status === 'fulfilled' ? ['352656173000002', '352656173000003'] : ['352656173000003', '352656173000002'];
    await complete(winImei, '84003', ((c.status === 'fulfilled' ? c : d) as PromiseFulfilledResult<{ answer: InstallAnswer }>).value.answer, 'the farm winner');
    const loser = await f.leftOf(loseImei, '84003');
    expect({ thing: loser.thing, unit: loser.unit, run: loser.run, attached: loser.attached }).toEqual({ thing: false, unit: undefined, run: undefined, attached: [] });
  });
});
