import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dairyGatewayFromEnv } from '../../lambdas/adapters/dairy-company/gateway-client';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoAlertsRepository } from '../../lambdas/adapters/dynamodb/alerts-repository';
import { dynamoDairyRepository } from '../../lambdas/adapters/dynamodb/dairy-repository';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import { farmsKeys } from '../../lambdas/adapters/dynamodb/keys';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import { dynamoWatchmanRepository } from '../../lambdas/adapters/dynamodb/watchman-repository';
import { makeDairyExporter } from '../../lambdas/dairy/exporter';
import { createLogger } from '../../lambdas/lib/logger';
import { MAX_KEPT_ATTEMPTS } from '../../lambdas/ports/dairy';
import type { Device } from '../../shared/entities/device';
import type { ActivityPoint } from '../../shared/telemetry/activities';
import { startTestStack } from '../support/local-stack';

/*
 * Faults of the dairy company's gateway (its stand-in on its own port, the token in the SSM
 * stand-in, the real SSM client, dynalite): a token the gateway stops taking, and an outage of
 * weeks. The exporter runs on a clock the test moves; the stack's own minute schedule is off.
 */
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const iso = (t: number) => new Date(t).toISOString();
const FARM = 'farm-pro';
const SUPPLIER = '31245';

let stack: Awaited<ReturnType<typeof startTestStack>>;
let devices: Device[];
const doc = () => createDocumentClient();
const readings = () => dynamoReadingsRepository(doc(), stack.facts.dynamodb.readingsTable);
const dairy = () => dynamoDairyRepository(doc(), stack.facts.dynamodb.farmsTable);

beforeAll(async () => {
  stack = await startTestStack(undefined, undefined, { dairySync: false });
  const farms = dynamoFarmRepository(doc(), stack.facts.dynamodb.farmsTable);
  devices = (await farms.listDevicesOfFarm(FARM)).filter((d) => d.status === 1);
  const farm = await farms.getFarm(FARM);
  if (!farm) throw new Error(`no ${FARM}`);
  await farms.putFarm({ ...farm, fonterra_api_status: true });
}, 180_000);
afterAll(async () => stack?.stop());

/** An exporter as the sync function wires it, its gateway client built from the stack's environment (the token from SSM). */
const exporterAt = (clock: { at: number }) =>
  makeDairyExporter({
    farms: dynamoFarmRepository(doc(), stack.facts.dynamodb.farmsTable),
    readings: readings(),
    alerts: dynamoAlertsRepository(doc(), stack.facts.dynamodb.alertsTable),
    dairy: dairy(),
    watchman: dynamoWatchmanRepository(doc(), stack.facts.dynamodb.farmsTable),
    // One client for the whole case: a container keeps its token between runs.
    gateway: dairyGatewayFromEnv(process.env),
    now: () => new Date(clock.at),
    log: createLogger({ test: 'faults-dairy-gateway' }, 'error'),
  });

const point = (t: number, litres: number, temp1: number): ActivityPoint => ({ published_at: iso(t), milk_volume: litres, temp1, temp2: null, temp3: null });
/** A finished milking of the vat, `start` to an hour later: one milking event to send. */
const milking = async (device: Device, start: number) => {
  await readings().putActivity({ kind: 'milking', start: point(start, 0, 12), end: point(start + HOUR, 6000, 6), device_id: device._id, farm_id: FARM }, 1);
  return `vatman:${FARM}:${device.vat_number}:milkingevent:${iso(start)}`;
};
const received = (keys: readonly string[]) => stack.dairyGateway.received().filter((e) => e.supplierId === SUPPLIER && keys.includes(e.key ?? ''));

describe('dairy gateway faults', () => {
  it('a gateway answering 401 until the token is rotated in SSM: the token is read again and every event is delivered once', async () => {
    const clock = { at: Date.now() - 40 * DAY };
    const keys = await Promise.all(devices.map((d, i) => milking(d, clock.at - 3 * HOUR + i * MIN)));
    const exporter = exporterAt(clock);
    // The company issues a new token; the operator has not put it in SSM yet.
    stack.dairyGateway.rotateToken('rotated-token-1');
    for (let step = 0; step < 12; step += 1) {
      clock.at += 5 * MIN;
      await exporter.run();
    }
    const before = await dairy().listEvents(FARM);
    const mine = before.filter((e) => keys.includes(e.key));
    expect(mine.map((e) => e.state)).toEqual(keys.map(() => 'pending'));
    expect(mine.some((e) => e.attempts.some((a) => a.status === 401))).toBe(true);
    expect(received(keys)).toEqual([]);

    // The operator puts the new token in the parameter: no deploy, no restart of the container.
    stack.ssm.put(stack.dairyTokenParameter, 'rotated-token-1');
    for (let step = 0; step < 6; step += 1) {
      clock.at += 5 * MIN;
      await exporter.run();
    }
    const delivered = received(keys);
    expect(delivered.map((e) => e.key).sort()).toEqual([...keys].sort());
    const after = (await dairy().listEvents(FARM)).filter((e) => keys.includes(e.key));
    expect(after.map((e) => e.state)).toEqual(keys.map(() => 'sent'));
    expect(after.every((e) => e.attempts.at(-1)?.status === 200)).toBe(true);
    stack.rotateDairyToken('local-dairy-gateway-token');
  }, 120_000);

  it('15 days of gateway outage: the event item stays small, its total of tries is kept, and the export resumes', async () => {
    const clock = { at: Date.now() - 20 * DAY };
    const device = devices[0] as Device;
    const start = clock.at - 2 * HOUR;
    const key = await milking(device, start);
    const exporter = exporterAt(clock);
    stack.dairyGateway.outage(Number.POSITIVE_INFINITY);
    const outageEnd = clock.at + 15 * DAY;
    // Hourly runs (the schedule's every minute would be 21,600 runs for the same point): each
    // tries the event once, as the backoff's 5-minute cap lets it.
    while (clock.at < outageEnd) {
      await exporter.run();
      clock.at += HOUR;
    }
    stack.dairyGateway.outage(0);
    const tries = stack.dairyGateway.requests().filter((r) => r.key === key).length;
    expect(tries).toBeGreaterThanOrEqual(15 * 24 - 1);
    const stored = (await doc().send(new GetCommand({ TableName: stack.facts.dynamodb.farmsTable, Key: farmsKeys.dairyEvent(FARM, device.vat_number, 'milkingevent', iso(start)) }))).Item;
    expect(stored?.state).toBe('pending');
    expect(stored?.attempts).toHaveLength(MAX_KEPT_ATTEMPTS);
    expect(stored?.attempt_count).toBe(tries);
    // DynamoDB refuses an item over 400 KB; a bounded history keeps it at a few KB however long the outage.
    expect(JSON.stringify(stored).length).toBeLessThan(6_000);

    // The gateway is back: the held event goes, and so does one detected after the outage.
    const later = await milking(device, clock.at - HOUR);
    for (let step = 0; step < 3; step += 1) {
      await exporter.run();
      clock.at += 5 * MIN;
    }
    expect(received([key, later]).map((e) => e.key).sort()).toEqual([key, later].sort());
    const events = (await dairy().listEvents(FARM)).filter((e) => e.key === key || e.key === later);
    expect(events.map((e) => e.state)).toEqual(['sent', 'sent']);
  }, 300_000);
});
