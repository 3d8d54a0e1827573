import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoAlertsRepository } from '../../lambdas/adapters/dynamodb/alerts-repository';
import { dynamoDairyRepository } from '../../lambdas/adapters/dynamodb/dairy-repository';
import { dynamoWatchmanRepository } from '../../lambdas/adapters/dynamodb/watchman-repository';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import { makeDairyGatewayClient } from '../../lambdas/adapters/dairy-company/gateway-client';
import { makeDairyExporter } from '../../lambdas/dairy/exporter';
import { createLogger } from '../../lambdas/lib/logger';
import { DEMO_DEVICES, DEMO_FARMS } from '../../local/seed/demo-data';
import { simFarmsFrom, startSimulator } from '../../local/simulator/simulator';
import { EXCEPTION_TYPES } from '../../shared/dairy-company/events';
import { vatLogSchema } from '../../shared/api/actions/farmer-log-fonterra';
import { startTestStack } from '../support/local-stack';

/**
 * End to end: the device simulator publishes a week of the Pro farm (31245,
 * two vats, quality estimates) over MQTT; the ingest detects the milkings and collections and the
 * alert engine raises the quality and late-milking alerts; the exporter, on its own clock walking
 * through the week, sends them to the gateway stand-in through a 10-minute outage. Every event the
 * platform detected must arrive exactly once. (The simulator's week raises no quality or
 * late-milking alert, so exceptions are covered by test/integration/dairy-link.test.ts, which raises
 * them through the alerts repository.)
 */
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const TOKEN = 'local-dairy-gateway-token';
let stack: Awaited<ReturnType<typeof startTestStack>>;
const weekStart = Math.floor((Date.now() - 7 * DAY) / MIN) * MIN;

beforeAll(async () => {
  stack = await startTestStack(undefined, undefined, { dairySync: false });
  const farms = dynamoFarmRepository(createDocumentClient(), stack.facts.dynamodb.farmsTable);
  const farm = await farms.getFarm('farm-pro');
  if (!farm) throw new Error('no farm-pro');
  await farms.putFarm({ ...farm, fonterra_api_status: true });
  const sim = await startSimulator({
    mqttUrl: stack.facts.mqtt,
    farms: simFarmsFrom(DEMO_FARMS.filter((f) => f._id === 'farm-pro'), DEMO_DEVICES).map((f) => ({ ...f, knode: [] })),
    backfillHours: 7 * 24,
    catchUpPerSecond: 2_000,
    seed: 21,
    stateFile: join(mkdtempSync(join(tmpdir(), 'vatman-week-')), 'state.json'),
    onPickup: ({ device, at, litres, temperature }) => {
      const d = DEMO_DEVICES.find((x) => x.name === device);
      if (d) stack.dairyGateway.tanker({ supplierId: '31245', vatId: d.vat_number, at: new Date(at).toISOString(), litres, temperature: temperature ?? 4 });
    },
  });
  await sim.caughtUp;
  await sim.stop();
  await stack.ingestDrained();
}, 600_000);
afterAll(async () => stack?.stop());

describe('a simulated week of a dairy-company farm, through the ingest', () => {
  it('reaches the gateway exactly once per detected milking, collection and exception, through a 10-minute outage', async () => {
    const doc = createDocumentClient();
    const farms = dynamoFarmRepository(doc, stack.facts.dynamodb.farmsTable);
    const readings = dynamoReadingsRepository(doc, stack.facts.dynamodb.readingsTable);
    const alerts = dynamoAlertsRepository(doc, stack.facts.dynamodb.alertsTable);
    let clock = weekStart;
    const exporter = makeDairyExporter({
      farms,
      readings,
      alerts,
      dairy: dynamoDairyRepository(doc, stack.facts.dynamodb.farmsTable),
      watchman: dynamoWatchmanRepository(doc, stack.facts.dynamodb.farmsTable),
      gateway: makeDairyGatewayClient(stack.facts.dairyGateway, async () => TOKEN),
      now: () => new Date(clock),
      log: createLogger({ test: 'dairy-week' }, 'error'),
    });
    const outageFrom = weekStart + 3 * DAY;
    const outageTo = outageFrom + 10 * MIN;
    const end = Date.now() + HOUR;
    while (clock <= end) {
      stack.dairyGateway.outage(clock >= outageFrom && clock < outageTo ? Number.POSITIVE_INFINITY : 0);
      await exporter.run();
      clock += clock >= outageFrom - 10 * MIN && clock < outageTo + 20 * MIN ? MIN : 30 * MIN;
    }
    stack.dairyGateway.outage(0);

    // What the platform detected: finished milkings and collections, and the dairy-company alerts.
    const expected: string[] = [];
    for (const d of (await farms.listDevicesOfFarm('farm-pro')).filter((x) => x.status === 1)) {
      for (const a of await readings.listActivities(d._id, '0', '9999', ['milking', 'collection'])) {
        if (a.end) expected.push(`${d.vat_number}:${a.kind === 'milking' ? 'milkingevent' : 'collectionevent'}:${a.start.published_at}`);
      }
    }
    for (const n of await alerts.list('farm-pro')) if (EXCEPTION_TYPES[n.type]) expected.push(`${n.device.vat_number}:vatexceptions:${n.data.published_at}`);
    expected.sort();
    const received = stack.dairyGateway
      .received()
      .filter((e) => e.supplierId === '31245')
      .map((e) => (e.key ?? '').replace('vatman:farm-pro:', ''))
      .sort();
    // Two milkings a day per vat and a pickup every day or two: a week holds dozens of events.
    expect(expected.filter((k) => k.includes('milkingevent')).length).toBeGreaterThanOrEqual(20);
    expect(expected.filter((k) => k.includes('collectionevent')).length).toBeGreaterThanOrEqual(4);
    expect(received).toEqual(expected);
    expect(stack.dairyGateway.requests().some((r) => r.status === 503)).toBe(true);

    const farmer = await stack.signIn('farmer@vatman.local');
    const log = vatLogSchema.array().parse((await stack.post('/api/farmer/log/fonterra', { type: 'FARMER_LOG_FONTERRA', farm: 'farm-pro' }, farmer)).body);
    for (const v of log) {
      expect(v.activity.map((r) => r.kind)).toEqual(['milkingevent', 'collectionevent']);
      expect(v.activity.every((r) => r.state === 'sent')).toBe(true);
    }
  }, 600_000);
});
