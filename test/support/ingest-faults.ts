import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { dynamoAlertSettingsRepository } from '../../lambdas/adapters/dynamodb/alert-settings-repository';
import { dynamoAlertsRepository } from '../../lambdas/adapters/dynamodb/alerts-repository';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import { dynamoMilkingWindowsRepository } from '../../lambdas/adapters/dynamodb/milking-windows-repository';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import type { Notifier } from '../../lambdas/alerts/notifier';
import { makeAlertProcessor } from '../../lambdas/alerts/processor';
import { makeIngest } from '../../lambdas/ingest/ingest';
import { makeStreamHandler } from '../../lambdas/ingest/stream-handler';
import { createLogger } from '../../lambdas/lib/logger';
import type { AlertsRepository } from '../../lambdas/ports/alerts';
import type { FarmRepository } from '../../lambdas/ports/farms';
import type { ReadingsRepository } from '../../lambdas/ports/readings';
import { deadLetterLines } from '../../local/replay-dlq';
import { DEMO_FARMS } from '../../local/seed/demo-data';
import { startKinesisStream } from '../../local/stand-ins/kinesis-stream';
import { telemetryTopic, type TelemetryMessageInput } from '../../shared/telemetry/device-message';
import { dayOf } from '../../shared/time/utc';
import type { DynaliteTables } from './dynalite';
import { Killed } from './killed';
import { chillerOffTrace, storedState, trace } from './telemetry';

/** About six hours across a UTC midnight: every kind of activity, then a chiller left off (alerts 102 and 101). */
const MIDNIGHT = Date.parse(`${dayOf(new Date(Date.now() - 86_400_000).toISOString())}T00:00:00.000Z`);
export const START = MIDNIGHT - 95 * 60_000;
export const MESSAGES: TelemetryMessageInput[] = [...trace(START, 200), ...chillerOffTrace((m) => new Date(START + (200 + m) * 60_000).toISOString())];
const FROM = MESSAGES[0]!.published_at;
const TO = MESSAGES.at(-1)!.published_at;

/** The notifier's place in the alert processor: delivery is not what the ingest cases look at (it has its own cases). */
const quietNotifier = { deliver: async () => 'done', retryPending: async () => 0 } as unknown as Notifier;

type Ports = { farms: FarmRepository; readings: ReadingsRepository; alerts: AlertsRepository };
export interface KillPoint {
  readonly target: keyof Ports;
  readonly method: string;
  readonly when: 'before' | 'after';
  readonly match: (args: unknown[]) => boolean;
}

/**
 * The ingest's fault cases over dynalite (`store`): the real stream handler, ingest and alert
 * engine, the Kinesis stream stand-in with Lambda's retries, and what a device's run left.
 */
export const ingestFaults = (store: DynaliteTables) => {
  const { doc, tables } = store;
  const log = createLogger({}, 'error');
  const farms = dynamoFarmRepository(doc(), tables.FARMS_TABLE as string);
  const readings = dynamoReadingsRepository(doc(), tables.READINGS_TABLE as string);
  const alerts = dynamoAlertsRepository(doc(), tables.ALERTS_TABLE as string);

  /** A Pro farm with one 21,500 L vat of its own: `vm-<id>` on `farm-<id>`. */
  const addVat = async (id: string) => {
    const base = DEMO_FARMS[1];
    if (!base) throw new Error('no demo farm');
    await farms.putFarm({ ...base, _id: `farm-${id}`, fonterra_id: `F${id}`.slice(0, 12) });
    await farms.putDevice({ _id: id, name: `vm-${id}`, farm_id: `farm-${id}`, vat_number: 1, status: 1, vat_size: 21_500, vat_max_height: 3500, vat_diameter: 2875, wedgeHeight: 60, vat_volume_offset: 0, vat_auto: false });
  };

  /** An ingest container as the ingest Lambda wires it (stream handler, ingest, alert engine) over these ports. */
  const container = (ports: Ports = { farms, readings, alerts }) => {
    const settings = dynamoAlertSettingsRepository(doc(), tables.FARMS_TABLE as string);
    const milkingWindows = dynamoMilkingWindowsRepository(doc(), tables.FARMS_TABLE as string);
    const processor = makeAlertProcessor({ farms: ports.farms, settings, milkingWindows, alerts: ports.alerts, notifier: quietNotifier, now: () => new Date(), log });
    return makeStreamHandler(makeIngest({ farms: ports.farms, readings: ports.readings, now: () => new Date(), log, onReadings: processor.onReadings }), log);
  };
  type Container = ReturnType<typeof container>;

  /** The ingest stream (2 shards, Lambda's retries and on-failure destination) consumed by `consumer(shard)`. */
  const ingestStream = (consumer: (shard: number) => Container, batchSize = 50) => {
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

  /** The ingest stream with a healthy container per shard. */
  const healthyStream = (batchSize?: number) => {
    const healthy = [container(), container()];
    return ingestStream((shard) => healthy[shard] as Container, batchSize);
  };

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
    const { stream, send } = healthyStream();
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

  /**
   * Ports that die at a chosen point, as a Lambda container killed there (timeout, out of memory):
   * from then on every call of that container fails. `point` names the method, before or after it
   * runs, and which call (the arguments) kills.
   */
  const killable = (point: KillPoint) => {
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

  /**
   * The ingest stream with one container per shard; while armed, the next batch's container is one
   * that dies at `point`, and a killed one is replaced by a cold one (no warm state) for the retry.
   */
  const killingStream = (point: KillPoint, armedAtStart: boolean, batchSize?: number) => {
    let armed = armedAtStart;
    let killer = killable(point);
    const containers = [container(), container()];
    const stream = ingestStream((shard) => {
      if (armed) {
        armed = false;
        killer = killable(point);
        containers[shard] = container(killer.ports);
      } else if (killer.state.dead) containers[shard] = container();
      return containers[shard] as Container;
    }, batchSize);
    return { ...stream, arm: () => void (armed = true), killer: () => killer };
  };

  return { addVat, healthyStream, killingStream, outcome, cleanRun };
};
