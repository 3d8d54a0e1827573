import { dynamoAuditRepository } from '../adapters/dynamodb/audit-repository';
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
import { dynamoConnectionsRepository } from '../adapters/dynamodb/connections-repository';
import type { FlagEditors, PortLoader, PortName, Ports } from '../ports/action-ports';
import { requireEnv } from './env';

/**
 * FARM_FLAG_USER_IDS: the user ids (Cognito subs), comma-separated, from CDK context
 * `farmFlagUserIds` in AWS and the local stack's configuration locally. It must be set; empty
 * means nobody may set the flags.
 */
export const flagEditorsFromEnv = (env: NodeJS.ProcessEnv = process.env): FlagEditors => {
  const raw = env.FARM_FLAG_USER_IDS;
  if (raw === undefined) throw new Error('Missing environment variable FARM_FLAG_USER_IDS');
  const ids = new Set(raw.split(',').map((s) => s.trim()).filter(Boolean));
  return { allows: (userId) => ids.has(userId) };
};

/**
 * The composition root of every API Lambda: each port is built from the environment the first
 * time a call names it, so a function never needs the configuration (or the grants) of a port it
 * does not use. The adapters are imported when their port is first loaded (issue 14): a call
 * loads only the AWS SDK clients its action's ports use (the farmer's range loads DynamoDB's,
 * not Cognito's, IoT's or SNS's), and the bundle's other clients are never initialised.
 * `load` the names first (dispatch does, from the action's ports and its access rule); a port
 * read before it was loaded throws, naming it.
 */
export const lazyPorts = (env: NodeJS.ProcessEnv = process.env): Ports & PortLoader => {
  let doc: ReturnType<typeof createDocumentClient> | undefined;
  const documentClient = () => (doc ??= createDocumentClient(env));
  const farmsTable = () => requireEnv('FARMS_TABLE', env);
  const builders: { [K in PortName]: () => Promise<Ports[K]> } = {
    farms: () => load1('farmsWrite'),
    farmsWrite: async () => dynamoFarmRepository(documentClient(), farmsTable()),
    readings: () => load1('readingsWrite'),
    readingsWrite: async () => dynamoReadingsRepository(documentClient(), requireEnv('READINGS_TABLE', env)),
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
    alertRoutes: async () => (await import('../adapters/sns/alert-sender')).alertEmailTopicsFromEnv(await load1('alertSettingsWrite'), env),
    groups: async () => (await import('../adapters/cognito/user-groups')).userGroupsFromEnv(env),
    audit: () => load1('auditWrite'),
    auditWrite: async () => dynamoAuditRepository(documentClient(), farmsTable()),
    milkingWindows: () => load1('milkingWindowsWrite'),
    milkingWindowsWrite: async () => dynamoMilkingWindowsRepository(documentClient(), farmsTable()),
    watchman: async () => dynamoWatchmanRepository(documentClient(), farmsTable()),
    watchmanWrite: async () => dynamoWatchmanRepository(documentClient(), farmsTable()),
    flagEditors: async () => flagEditorsFromEnv(env),
    verifier: async () => (await import('./token-verifier')).tokenVerifierFromEnv(env),
    botCheck: async () => (await import('../adapters/bot-check/bot-check')).botCheckFromEnv(env),
    devices: async () => (await import('../adapters/iot/device-commands')).deviceCommandsFromEnv(env),
    unitChecks: async () => (await import('../adapters/iot/device-commands')).unitChecksFromEnv(env),
    thingRegistry: async () => (await import('../adapters/iot/thing-registry')).thingRegistryFromEnv(env),
    provisioning: async () => (await import('../adapters/iot/provisioning')).provisioningFromEnv(env),
    now: async () => () => new Date(),
    connections: async () => dynamoConnectionsRepository(documentClient(), requireEnv('CONNECTIONS_TABLE', env)),
    liveSender: async () => (await import('../adapters/apigateway/live-sender')).liveSenderFromEnv(env),
    liveAuthority: async () => (await import('../adapters/cognito/live-authority')).liveAuthorityFromEnv(env),
  };
  const built: Partial<Record<PortName, unknown>> = {};
  const loading: Partial<Record<PortName, Promise<unknown>>> = {};
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
        if (!(name in built)) throw new Error(`Port ${name} was used before it was loaded: name it in the action's ports (lambdas/lib/dispatch.ts serve)`);
        return built[name];
      },
    });
  }
  Object.defineProperty(ports, 'load', { value: async (names: readonly PortName[]) => void (await Promise.all([...new Set(names)].map(load1))) });
  return ports;
};
