import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import webpush from 'web-push';
import { PUSH_ENV } from '../../lambdas/ports/push';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PORT_GRANTS } from '../../cdk/lib/port-grants';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoAlertSettingsRepository } from '../../lambdas/adapters/dynamodb/alert-settings-repository';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import { dynamoWatchmanRepository } from '../../lambdas/adapters/dynamodb/watchman-repository';
import { alertProcessor } from '../../lambdas/alerts/deps';
import { portsFromEnv } from '../../lambdas/composition/ports-from-env';
import { INGEST_PORTS } from '../../lambdas/ports/function-ports';
import { makeIngest } from '../../lambdas/ingest/ingest';
import { createLogger } from '../../lambdas/lib/logger';
import type { PortName } from '../../lambdas/ports/action-ports';
import { makeWatchman } from '../../lambdas/watchman/job';
import { WATCHMAN_PORTS } from '../../lambdas/ports/function-ports';
import { cachedVatWindow } from '../../lambdas/watchman/vat-window';
import { ensureTables, startDynamo, type DynamoStandIn } from '../../local/stand-ins/dynamodb';
import { TABLES, type TableDefinition } from '../../shared/data/tables';
import { WATCHMAN_DEFAULTS } from '../../shared/constants';
import { PACKAGES } from '../../shared/entities/farm';
import { knodeTopic, telemetryTopic } from '../../shared/telemetry/device-message';
import { dayOf } from '../../shared/time/utc';
import { freePort } from '../support/free-port';
import { shuffled, trace } from '../support/telemetry';

/**
 * The local stand-ins do not enforce IAM, so a key family missing from a port's grant would pass
 * every other local test and fail only in AWS (for the ingest: readings not stored, alerts not
 * raised). Here the real code runs against dynalite through the ports its function names, every
 * write it sends is recorded, and each must be one the stack grants those ports
 * (cdk/lib/port-grants.ts): the action on that table, on a partition key its dynamodb:LeadingKeys
 * condition admits.
 */
interface Write {
  readonly table: TableDefinition['id'];
  readonly action: string;
  readonly pk: string;
}

let dynamo: DynamoStandIn;
let env: NodeJS.ProcessEnv;
let tableIds: Map<string, TableDefinition['id']>;
let recording: Write[] | undefined;

const writesOf = (name: string, input: Record<string, unknown>): Write[] => {
  const table = (t: unknown) => tableIds.get(String(t)) as TableDefinition['id'];
  const pkOf = (o: unknown) => String((o as { pk?: unknown } | undefined)?.pk);
  switch (name) {
    case 'PutCommand':
      return [{ table: table(input.TableName), action: 'PutItem', pk: pkOf(input.Item) }];
    case 'UpdateCommand':
      return [{ table: table(input.TableName), action: 'UpdateItem', pk: pkOf(input.Key) }];
    case 'DeleteCommand':
      return [{ table: table(input.TableName), action: 'DeleteItem', pk: pkOf(input.Key) }];
    case 'BatchWriteCommand':
      return Object.entries(input.RequestItems as Record<string, { PutRequest?: { Item: unknown }; DeleteRequest?: { Key: unknown } }[]>).flatMap(([t, requests]) =>
        requests.map((r) => ({ table: table(t), action: 'BatchWriteItem', pk: pkOf(r.PutRequest?.Item ?? r.DeleteRequest?.Key) })),
      );
    case 'TransactWriteCommand':
      throw new Error('a transaction: add its actions to this check');
    default:
      return [];
  }
};

/** Whether the stack's grants for `ports` let this write through (the same rules grantPorts turns into IAM). */
const granted = (ports: readonly PortName[], w: Write): boolean =>
  ports
    .flatMap((p) => PORT_GRANTS[p])
    .some((g) => {
      if (g.kind === 'table') return g.table === w.table && (g.actions as readonly string[]).includes(w.action);
      if (g.kind !== 'tableKeys' || g.table !== w.table || !((g.actions ?? ['PutItem']) as readonly string[]).includes(w.action)) return false;
      return 'prefix' in g.key ? w.pk.startsWith(g.key.prefix) : w.pk === g.key.equals;
    });

/** Runs `work`, recording every DynamoDB write it sends. */
const recorded = async (work: () => Promise<unknown>): Promise<Write[]> => {
  recording = [];
  try {
    await work();
    return recording;
  } finally {
    recording = undefined;
  }
};

const ungranted = (ports: readonly PortName[], writes: readonly Write[]) => [...new Set(writes.filter((w) => !granted(ports, w)).map((w) => `${w.action} ${w.table} ${w.pk}`))];
const families = (writes: readonly Write[], table: TableDefinition['id']) => [...new Set(writes.filter((w) => w.table === table).map((w) => `${w.action} ${w.pk.replace(/[#].*$/, '#')}`))].sort();

const vat = { _id: 'dev-g1', name: 'vm-g1', farm_id: 'farm-g', vat_number: 1, status: 1 as const, vat_size: 21_500, vat_max_height: 3500, vat_diameter: 2875, wedgeHeight: 60, vat_volume_offset: 0, vat_auto: false };

beforeAll(async () => {
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
  dynamo = await startDynamo(await freePort());
  const tables = await ensureTables(new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1' }), 'grants');
  // The push sender's settings (its key is read from SSM only when a push is sent, which no farm here subscribes to).
  const push = { [PUSH_ENV.publicKey]: webpush.generateVAPIDKeys().publicKey, [PUSH_ENV.privateKeyParameter]: '/vatman/vapid-private-key', [PUSH_ENV.subject]: 'mailto:alerts@vatman.local', [PUSH_ENV.ackUrl]: 'https://vatman.example/api/user' };
  env = { ...tables, ...push, DYNAMODB_ENDPOINT: dynamo.endpoint, AWS_REGION: 'us-east-1', FARM_FLAG_USER_IDS: '' };
  tableIds = new Map(TABLES.flatMap((t) => (tables[t.envVar] ? [[tables[t.envVar] as string, t.id] as const] : [])));
  // Every document client's sends, as the adapters build them; recorded only inside `recorded`.
  const send = DynamoDBDocumentClient.prototype.send;
  vi.spyOn(DynamoDBDocumentClient.prototype, 'send').mockImplementation(function (this: DynamoDBDocumentClient, ...args: Parameters<typeof send>) {
    const [command] = args as unknown as [{ constructor: { name: string }; input: Record<string, unknown> }];
    recording?.push(...writesOf(command.constructor.name, command.input));
    return (send as (...a: unknown[]) => unknown).apply(this, args) as ReturnType<typeof send>;
  });
  // The farm, its vat and its knode gateway, as the installer and seed make them (not recorded).
  const farms = dynamoFarmRepository(createDocumentClient(env), env.FARMS_TABLE as string);
  await farms.putFarm({
    _id: 'farm-g',
    fonterra_id: '31999',
    name: 'Grants farm',
    package: PACKAGES[0],
    is_milk_enabled: true,
    power: false,
    knode: { is_water_enabled: true, is_effluent_enabled: false, is_land_enabled: false, is_weather_enabled: false },
    timezone: 'Pacific/Auckland',
    // Watch on, and a dairy-company farm with its sync on: a vat with no messages is a fault, so the run turns the sync off.
    auto_check: true,
    fonterra_api_status: true,
    harvest: false,
    install_numVats: 1,
  });
  await farms.putDevice(vat);
  await farms.putKnodeGateway('kn-g', 'farm-g');
  await farms.putUser({ _id: 'user-g', firstName: 'Gale', lastName: 'Grant', email: 'gale@example.com', phone: '+64211234567', role: 'User', is_herd_enabled: 0, subscribed: false, email_verify: 1, phone_verify: 1, created_at: new Date().toISOString() });
  await farms.linkUserToFarm('user-g', 'farm-g');
});
afterAll(async () => {
  vi.restoreAllMocks();
  await dynamo?.stop();
});

const event = (topic: string, message: object) => ({ topic, received_at: Date.now(), payload: Buffer.from(JSON.stringify(message)).toString('base64') });

describe('every write the code sends is one its ports are granted', () => {
  it('the ingest: readings across a midnight, late and repeated, a knode asset and a rejected message, with the alert engine', async () => {
    const log = createLogger({}, 'error');
    // Texts and emails go out through SNS, not here: a sender that sends nothing (the route writes are the next test's).
    const ports = portsFromEnv(env, { alertSender: { sms: async () => ({ sent: true }), email: async () => ({ sent: true }) } });
    const names = INGEST_PORTS.filter((p) => p !== 'connections' && p !== 'liveSender');
    await ports.load(names);
    const ingest = makeIngest({ farms: ports.ingestRecords, readings: ports.readingsWrite, now: () => new Date(), log, onReadings: alertProcessor(ports, log).onReadings });
    const midnight = Date.parse(`${dayOf(new Date(Date.now() - 86_400_000).toISOString())}T00:00:00.000Z`);
    const messages = trace(midnight - 95 * 60_000, 200);
    const writes = await recorded(async () => {
      // In order, then every message again shuffled: late readings, replays and repeats.
      for (const m of messages) await ingest(event(telemetryTopic('vm-g1'), m));
      for (const m of shuffled(messages, 7).slice(0, 40)) await ingest(event(telemetryTopic('vm-g1'), { ...m, temp1: 9 }));
      await ingest(event(knodeTopic('kn-g'), { published_at: new Date().toISOString(), type: 'Tank', asset_name: 'House tank', metric_value_1: 42, unit_1: '%' }));
      await ingest(event(telemetryTopic('vm-g1'), { published_at: 'not a time' }));
    });
    expect(ungranted(INGEST_PORTS, writes)).toEqual([]);
    // The scenario reached the families the grants name (so the check above checked them).
    expect(families(writes, 'Readings')).toEqual(expect.arrayContaining(['BatchWriteItem R#', 'PutItem A#', 'PutItem S#', 'PutItem X#']));
    expect(families(writes, 'Farms')).toEqual(expect.arrayContaining(['PutItem FARM#', 'UpdateItem DEVICE#']));
    expect(families(writes, 'Alerts')).toEqual(expect.arrayContaining(['PutItem DEVICE#', 'PutItem FARM#']));
  });

  it('the alert route (sign-up, the profile, the post-confirmation trigger, the notifier) and the profile itself', async () => {
    const routes = dynamoAlertSettingsRepository(createDocumentClient(env), env.FARMS_TABLE as string);
    const ports = portsFromEnv(env);
    await ports.load(['userProfiles']);
    const writes = await recorded(async () => {
      // The route's one write (lambdas/adapters/sns/alert-email.ts puts it through this store).
      await routes.putEmailRoute('user-g', { email: 'gale@example.com', topic_arn: 'arn:aws:sns:us-east-1:0:t', subscription_arn: 'arn:s', subscribed_at: new Date().toISOString() });
      await ports.userProfiles.putUser({ _id: 'user-h', firstName: 'Hana', lastName: 'Grant', email: 'hana@example.com', phone: '+64211234568', role: 'User', is_herd_enabled: 0, subscribed: false, email_verify: 1, phone_verify: 1, created_at: new Date().toISOString() }, { onlyIfNew: true });
      await ports.userProfiles.updateUser('user-h', { firstName: 'Hina', phone_verify: 2 });
    });
    for (const port of ['alertTopics', 'alertRoutes', 'alertSender'] as const) expect(ungranted([port], writes.slice(0, 1)), port).toEqual([]);
    expect(ungranted(['userProfiles'], writes.slice(1))).toEqual([]);
    expect(families(writes, 'Farms')).toEqual(['PutItem USER#', 'UpdateItem USER#']);
  });

  it('the Watchman job: its lease, run and cases and the farm flag, never its settings', async () => {
    // The settings are the Watchman page's (SAVE_SETTINGS); the job only reads them.
    await dynamoWatchmanRepository(createDocumentClient(env), env.FARMS_TABLE as string).putSettings({ ...WATCHMAN_DEFAULTS, on_status: true });
    const ports = portsFromEnv(env);
    await ports.load(WATCHMAN_PORTS);
    // As lambdas/watchman/handler.ts wires it.
    const job = makeWatchman({
      farms: { listFarms: () => ports.farms.listFarms(), listDevicesOfFarm: (id) => ports.farms.listDevicesOfFarm(id), setFarmFlag: (...a) => ports.farmFlags.setFarmFlag(...a) },
      readings: ports.readingsHistory,
      vatWindow: cachedVatWindow(ports.readingsHistory, ports.watchmanDigests),
      dairy: ports.dairy,
      alerts: ports.alertHistory,
      watchman: ports.watchmanRuns,
      now: ports.now,
      log: createLogger({}, 'error'),
    });
    const writes = await recorded(async () => {
      const outcome = await job.run();
      if (!outcome.ran) throw new Error(`Watchman did not run: ${outcome.reason}`);
      // What a later run does when the farm is well again: the flag back on, the case closed.
      await ports.farmFlags.setFarmFlag('farm-g', 'fonterra_api_status', true);
      for (const c of await ports.watchmanRuns.listOpenCases()) await ports.watchmanRuns.closeCase(c, new Date().toISOString());
    });
    expect(ungranted(WATCHMAN_PORTS, writes)).toEqual([]);
    expect(families(writes, 'Farms')).toEqual(expect.arrayContaining(['DeleteItem WATCHMAN#', 'PutItem WATCHMAN#', 'UpdateItem FARM#']));
    expect(writes.some((w) => w.pk === 'WATCHMAN')).toBe(false);
  });
});
