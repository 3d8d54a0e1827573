import { dynamoAuditedChanges, dynamoAuditRepository } from '../adapters/dynamodb/audit-repository';
import { createDocumentClient } from '../adapters/dynamodb/client';
import { dynamoAlertSettingsRepository } from '../adapters/dynamodb/alert-settings-repository';
import { dynamoAlertsRepository } from '../adapters/dynamodb/alerts-repository';
import { dynamoDairyRepository } from '../adapters/dynamodb/dairy-repository';
import { dynamoEnquiryRepository } from '../adapters/dynamodb/enquiries-repository';
import { dynamoEquipmentRepository } from '../adapters/dynamodb/equipment-repository';
import { dynamoFarmRepository } from '../adapters/dynamodb/farms-repository';
import { dynamoInstallRepository } from '../adapters/dynamodb/installs-repository';
import { dynamoLookupRepository } from '../adapters/dynamodb/lookups-repository';
import { dynamoMilkingWindowsRepository } from '../adapters/dynamodb/milking-windows-repository';
import { dynamoOrganizationRepository } from '../adapters/dynamodb/organizations-repository';
import { dynamoPickupRepository } from '../adapters/dynamodb/pickups-repository';
import { dynamoReadingsRepository } from '../adapters/dynamodb/readings-repository';
import { dynamoWatchmanRepository } from '../adapters/dynamodb/watchman-repository';
import { dynamoWatchmanDigestRepository } from '../adapters/dynamodb/watchman-digest-repository';
import { dynamoConnectionsRepository } from '../adapters/dynamodb/connections-repository';
import { setClientInstrument, type ClientInstrument } from '../adapters/aws-client';
import { dynamoPushSubscriptions } from '../adapters/dynamodb/push-subscriptions-repository';
import { PUSH_ENV } from '../ports/push';
import type { FlagEditors, PortLoader, PortName, Ports } from '../ports/action-ports';
import { requireEnv } from '../lib/env';

/**
 * FARM_FLAG_USER_IDS: the user ids (Cognito subs), comma-separated, from CDK context
 * `farmFlagUserIds` in AWS and the local stack's configuration locally. It must be set; empty
 * means nobody may set the flags.
 */
const flagEditorsFromEnv = (env: NodeJS.ProcessEnv = process.env): FlagEditors => {
  const raw = env.FARM_FLAG_USER_IDS;
  if (raw === undefined) throw new Error('Missing environment variable FARM_FLAG_USER_IDS');
  const ids = new Set(raw.split(',').map((s) => s.trim()).filter(Boolean));
  return { allows: (userId) => ids.has(userId) };
};

interface PortsOptions {
  /** Wraps every AWS SDK client the adapters build (a traced function's Tracer.captureAWSv3Client: lambdas/lib/tracing.ts). */
  readonly instrumentClient?: ClientInstrument;
}

/**
 * The one composition root of the Lambdas: the only lambdas/ file that builds adapters
 * (eslint.config.js COMPOSITION_ROOTS). Every function (the API's, the ingest, the alert sweep,
 * device replies, the dairy sync, Watchman, the live WebSocket, the Cognito triggers) asks it for
 * the ports it names, and the stack grants it what those names need (cdk/lib/port-grants.ts), so
 * the code, its environment and its IAM come from one list. Each port is built from the
 * environment the first time it is loaded, and its adapter is imported then: a cold start loads
 * only the AWS SDK clients its ports use (the farmer's range loads DynamoDB's, not Cognito's, IoT's
 * or SNS's). `load` the names first (dispatch does, from the action's ports and its access rule; the
 * other handlers from their constant); a port read before it was loaded throws, naming it.
 * `given` ports are used as they are (tests pass a clock or a sender).
 */
export const portsFromEnv = (env: NodeJS.ProcessEnv = process.env, given: Partial<Ports> = {}, options: PortsOptions = {}): Ports & PortLoader => {
  if (options.instrumentClient) setClientInstrument(options.instrumentClient);
  let doc: ReturnType<typeof createDocumentClient> | undefined;
  const documentClient = () => (doc ??= createDocumentClient(env));
  const farmsTable = () => requireEnv('FARMS_TABLE', env);
  // One repository behind the Readings ports (its decoded-bucket cache is shared); each port offers its part of it.
  let readingsRepository: ReturnType<typeof dynamoReadingsRepository> | undefined;
  const readingsStore = () => (readingsRepository ??= dynamoReadingsRepository(documentClient(), requireEnv('READINGS_TABLE', env)));
  const builders: { [K in PortName]: () => Promise<Ports[K]> } = {
    farms: () => load1('farmsWrite'),
    farmsWrite: async () => dynamoFarmRepository(documentClient(), farmsTable()),
    farmRemoval: async () => dynamoFarmRepository(documentClient(), farmsTable()),
    userProfiles: () => load1('farmsWrite'),
    farmFlags: () => load1('farmsWrite'),
    ingestRecords: () => load1('farmsWrite'),
    readings: () => load1('readingsWrite'),
    readingsWrite: async () => readingsStore(),
    herdNotes: async () => readingsStore(),
    alerts: () => load1('alertsWrite'),
    alertsWrite: async () => dynamoAlertsRepository(documentClient(), requireEnv('ALERTS_TABLE', env)),
    alertSettings: () => load1('alertSettingsWrite'),
    alertSettingsWrite: async () => dynamoAlertSettingsRepository(documentClient(), farmsTable()),
    pickups: async () => dynamoPickupRepository(documentClient(), farmsTable()),
    pickupList: () => load1('pickups'),
    equipment: () => load1('equipmentWrite'),
    equipmentWrite: async () => dynamoEquipmentRepository(documentClient(), farmsTable()),
    organizations: () => load1('organizationsWrite'),
    organizationsWrite: async () => dynamoOrganizationRepository(documentClient(), farmsTable()),

    dairy: async () => dynamoDairyRepository(documentClient(), farmsTable()),
    lookups: async () => dynamoLookupRepository(documentClient(), farmsTable()),
    installs: async () => dynamoInstallRepository(documentClient(), farmsTable()),
    units: async () => dynamoInstallRepository(documentClient(), farmsTable()),
    identity: async () => (await import('../adapters/cognito/identity-provider')).identityProviderFromEnv(env),
    account: async () => (await import('../adapters/cognito/account')).accountServiceFromEnv(env),
    enquiries: async () => dynamoEnquiryRepository(documentClient(), farmsTable()),
    salesMail: async () => (await import('../adapters/sns/sales-mail')).salesMailFromEnv(env),
    alertRoutes: () => load1('alertTopics'),
    groups: async () => (await import('../adapters/cognito/user-groups')).userGroupsFromEnv(env),
    audit: async () => dynamoAuditRepository(documentClient(), farmsTable()),
    auditWrite: async () => dynamoAuditRepository(documentClient(), farmsTable()),
    auditedChanges: async () => dynamoAuditedChanges(documentClient(), farmsTable()),
    watchmanSettingsChanges: async () => dynamoAuditedChanges(documentClient(), farmsTable()),
    milkingWindows: () => load1('milkingWindowsWrite'),
    milkingWindowsWrite: async () => dynamoMilkingWindowsRepository(documentClient(), farmsTable()),
    watchman: async () => dynamoWatchmanRepository(documentClient(), farmsTable()),
    watchmanWrite: async () => dynamoWatchmanRepository(documentClient(), farmsTable()),
    flagEditors: async () => flagEditorsFromEnv(env),
    fleetStats: async () =>
      (await import('../adapters/dynamodb/fleet-repository')).dynamoFleetStats(documentClient(), {
        farms: farmsTable(),
        alerts: requireEnv('ALERTS_TABLE', env),
      }),
    deadLetterQueue: async () => (await import('../adapters/sqs/dead-letter-queue')).deadLetterQueueFromEnv(env),
    fleetLookups: async () => (await import('../adapters/dynamodb/fleet-repository')).dynamoFleetLookups(documentClient(), farmsTable()),
    ingestCounters: async () => (await import('../adapters/dynamodb/fleet-repository')).dynamoIngestCounters(documentClient(), requireEnv('ALERTS_TABLE', env)),
    verifier: async () => (await import('../lib/token-verifier')).tokenVerifierFromEnv(env),
    botCheck: async () => (await import('../adapters/bot-check/bot-check')).botCheckFromEnv(env),
    devices: async () => (await import('../adapters/iot/device-commands')).deviceCommandsFromEnv(env),
    unitChecks: async () => (await import('../adapters/iot/device-commands')).unitChecksFromEnv(env),
    thingRegistry: async () => (await import('../adapters/iot/thing-registry')).thingRegistryFromEnv(env),
    provisioning: async () => (await import('../adapters/iot/provisioning')).provisioningFromEnv(env),
    now: async () => () => new Date(),
    connections: async () => dynamoConnectionsRepository(documentClient(), requireEnv('CONNECTIONS_TABLE', env)),
    liveSender: async () => (await import('../adapters/apigateway/live-sender')).liveSenderFromEnv(env),
    liveAuthority: async () => (await import('../adapters/cognito/live-authority')).liveAuthorityFromEnv(env),

    readingsHistory: () => load1('readingsWrite'),
    alertHistory: () => load1('alertsWrite'),
    alertSender: async () => (await import('../adapters/sns/alert-sender')).snsAlertSender(await load1('alertTopics')),
    // The route (topic, subscriptions, email status) is kept with the user's alert settings.
    alertTopics: async () => {
      const [{ alertEmailTopicsFromEnv }, routes, now] = await Promise.all([import('../adapters/sns/alert-sender'), load1('alertSettingsWrite'), load1('now')]);
      return alertEmailTopicsFromEnv(routes, env, undefined, now);
    },
    deviceReplies: async () => {
      const { storeDeviceReply } = await import('../adapters/iot/device-commands');
      const table = requireEnv('ALERTS_TABLE', env);
      return { store: (thing, reply) => storeDeviceReply(documentClient(), table, thing, reply) };
    },
    dairyWrite: async () => dynamoDairyRepository(documentClient(), farmsTable()),
    dairyGateway: async () => (await import('../adapters/dairy-company/gateway-client')).dairyGatewayFromEnv(env),
    watchmanRuns: async () => dynamoWatchmanRepository(documentClient(), farmsTable()),
    watchmanDigests: async () => dynamoWatchmanDigestRepository(documentClient(), requireEnv('READINGS_TABLE', env)),
    totpStatus: async () => (await import('../adapters/cognito/mfa-status')).totpStatusFromEnv(env),
    pushSubscriptions: async () => dynamoPushSubscriptions(documentClient(), farmsTable()),
    pushRecipients: () => load1('pushSubscriptions'),
    // Never set in AWS: only the local stack's push-service stand-in listens on plain http.
    pushConfig: async () => ({ allowLocalEndpoints: env[PUSH_ENV.allowLocalEndpoints] === '1' }),
    pushSender: async () => (await import('../adapters/push/web-push-sender')).webPushSenderFromEnv(env),
    pushAckVerifier: async () => (await import('../adapters/push/web-push-sender')).pushAckVerifierFromEnv(env),
    alertStatus: () => load1('alertsWrite'),
  };
  const built: Partial<Record<PortName, unknown>> = { ...given };
  const loading: Partial<Record<PortName, Promise<unknown>>> = Object.fromEntries(Object.entries(given).map(([name, port]) => [name, Promise.resolve(port)]));
  // A load that failed (a missing variable) is tried again by the next call, as the port's first use was before.
  function load1<K extends PortName>(name: K): Promise<Ports[K]> {
    return (loading[name] ??= builders[name]().then(
      (port) => (built[name] = port),
      (err: unknown) => {
        delete loading[name];
        throw err;
      },
    )) as Promise<Ports[K]>;
  }
  const ports = {} as Ports & PortLoader;
  for (const name of Object.keys(builders) as PortName[]) {
    Object.defineProperty(ports, name, {
      enumerable: true,
      get: () => {
        if (!(name in built)) throw new Error(`Port ${name} was used before it was loaded: name it in the action's ports (lambdas/lib/dispatch.ts serve) or the function's port list`);
        return built[name];
      },
    });
  }
  Object.defineProperty(ports, 'load', { value: async (names: readonly PortName[]) => void (await Promise.all([...new Set(names)].map(load1))) });
  return ports;
};
