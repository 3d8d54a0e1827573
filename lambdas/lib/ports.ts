import type { BotCheck } from '../adapters/bot-check/bot-check';
import type { AccountService } from '../adapters/cognito/account';
import type { IdentityProvider } from '../adapters/cognito/identity-provider';
import type { UserGroups } from '../adapters/cognito/user-groups';
import { dynamoAuditRepository, type AuditRepository } from '../adapters/dynamodb/audit-repository';
import { createDocumentClient } from '../adapters/dynamodb/client';
import { dynamoAlertSettingsRepository, type AlertSettingsRepository } from '../adapters/dynamodb/alert-settings-repository';
import { dynamoAlertsRepository, type AlertsRepository } from '../adapters/dynamodb/alerts-repository';
import { dynamoDairyRepository, type DairyRepository } from '../adapters/dynamodb/dairy-repository';
import { dynamoEnquiryRepository, type EnquiryRepository } from '../adapters/dynamodb/enquiries-repository';
import { dynamoEquipmentRepository, type EquipmentRepository } from '../adapters/dynamodb/equipment-repository';
import { dynamoFarmRepository, type FarmRepository } from '../adapters/dynamodb/farms-repository';
import { dynamoInstallRepository, type InstallRepository } from '../adapters/dynamodb/installs-repository';
import { dynamoLookupRepository, type LookupRepository } from '../adapters/dynamodb/lookups-repository';
import { dynamoMilkingWindowsRepository, type MilkingWindowsRepository } from '../adapters/dynamodb/milking-windows-repository';
import { dynamoOrganizationRepository, type OrganizationRepository } from '../adapters/dynamodb/organizations-repository';
import { dynamoPickupRepository, type PickupRepository } from '../adapters/dynamodb/pickups-repository';
import { dynamoReadingsRepository, type ReadingsRepository } from '../adapters/dynamodb/readings-repository';
import { dynamoWatchmanRepository, type WatchmanRepository } from '../adapters/dynamodb/watchman-repository';
import type { DeviceCommands, UnitChecks } from '../adapters/iot/device-commands';
import type { UnitProvisioning } from '../adapters/iot/provisioning';
import type { ThingRegistry } from '../adapters/iot/thing-registry';
import type { AlertEmailTopics } from '../adapters/sns/alert-email';
import type { SalesMail } from '../adapters/sns/sales-mail';
import type { LiveSender } from '../adapters/apigateway/live-sender';
import { dynamoConnectionsRepository, type ConnectionsRepository } from '../adapters/dynamodb/connections-repository';
import { requireEnv } from './env';
import type { TokenVerifier } from './token-verifier';

/** What the read ports offer: the repositories' reads only (cdk/lib/port-grants.ts grants them read access). */
export type FarmReader = Pick<
  FarmRepository,
  'getUser' | 'findUserByEmail' | 'findUsersByEmail' | 'listUsers' | 'listFarmIdsOfUser' | 'isLinked' | 'getFarm' | 'getFarms' | 'findFarmBySupplyNumber' | 'listFarms' | 'getDevice' | 'listDevicesOfFarm' | 'listDevices' | 'listKnodeAssets'
>;
/**
 * Range reads may store the compacted partial bucket of an open day (pk `P#…`): the one write of
 * the read port, granted on those keys only.
 */
export type ReadingsReader = Pick<
  ReadingsRepository,
  'readPartitions' | 'readRange' | 'readRangeColumns' | 'listRaw' | 'listRawBetween' | 'getRaw' | 'listActivities' | 'getActivity' | 'latestReading' | 'latestActivity' | 'getHerdNote' | 'listRejected'
>;
export type AlertsReader = Pick<AlertsRepository, 'list' | 'listPage' | 'get' | 'smsCount' | 'listDeliveries' | 'listDeadLetters' | 'getEngine'>;
export type AlertSettingsReader = Pick<AlertSettingsRepository, 'getFarmSettings' | 'getAutoSettings' | 'getPreferences' | 'getPreferencesOf' | 'listUserIdsOfFarm' | 'getEscalation'>;
export type EquipmentReader = Pick<EquipmentRepository, 'getEquipment'>;
export type AuditReader = Pick<AuditRepository, 'list'>;
export type MilkingWindowsReader = Pick<MilkingWindowsRepository, 'list'>;

/** Who may set the farm flags (operator §6: a fixed list of user ids, here configuration). */
export interface FlagEditors {
  allows(userId: string): boolean;
}

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

export type OrganizationReader = Pick<OrganizationRepository, 'getOrganization' | 'getContent' | 'listSubOrganizations' | 'getRole' | 'listOrganizationIdsOfUser'>;

/** The dairy-company link's records (issue 21): the reports sent and the tanker dockets, read only; the exporter (lambdas/dairy) writes them. */
export type DairyReader = Pick<DairyRepository, 'listEvents' | 'listDockets'>;

/** Watchman's settings, runs and open cases, read only (issue 22); the job (lambdas/watchman) writes runs and cases. */
export type WatchmanReader = Pick<WatchmanRepository, 'getSettings' | 'listRuns' | 'listOpenCases'>;
/** The API's one Watchman write: its settings item (a PutItem on `WATCHMAN` keys, cdk/lib/port-grants.ts). */
export type WatchmanSettingsWriter = Pick<WatchmanRepository, 'putSettings'>;

/**
 * Every port an API action may use. An action names the ones it uses (lambdas/lib/dispatch.ts
 * `serve`), its endpoint's Lambda builds only those (below), and the stack grants each function
 * only what its ports need (cdk/lib/port-grants.ts). A table has a read port and a write port, so
 * an action that only reads cannot write, by type here and by IAM in AWS.
 */
export interface Ports {
  readonly farms: FarmReader;
  readonly farmsWrite: FarmRepository;
  readonly readings: ReadingsReader;
  readonly readingsWrite: ReadingsRepository;
  readonly alerts: AlertsReader;
  readonly alertsWrite: AlertsRepository;
  readonly alertSettings: AlertSettingsReader;
  readonly alertSettingsWrite: AlertSettingsRepository;
  readonly pickups: PickupRepository;
  /** The farm's entered pickups, read only (calibration's volumes for farms the dairy company does not report). */
  readonly pickupList: Pick<PickupRepository, 'listPickups' | 'listPickupsSince'>;
  /** A farm's equipment items (farmer §2.13): read, and replaced whole by the write port. */
  readonly equipment: EquipmentReader;
  readonly equipmentWrite: EquipmentRepository;
  /** Organizations (farmer §2.12): the tree, its farms and its users' roles; the write port adds, edits, deletes, links and unlinks. */
  readonly organizations: OrganizationReader;
  readonly organizationsWrite: OrganizationRepository;

  /** The dairy company's reports per vat and its tanker dockets. */
  readonly dairy: DairyReader;
  /** Operator milk-data lookups (who looked at which farm): kept, and listed for Admins. */
  readonly lookups: LookupRepository;
  /** The installer's records: farms' controller units and the install log. */
  readonly installs: InstallRepository;
  /** A farm's controller unit, read only (where its vats' controller settings are sent). */
  readonly units: Pick<InstallRepository, 'unitOfFarm'>;
  readonly identity: IdentityProvider;
  /** The signed-in person's own Cognito account: verification codes, password, name and phone. */
  readonly account: AccountService;
  /** Enquiries (SURVEY_SUBMIT), written once each. */
  readonly enquiries: EnquiryRepository;
  /** Mail to the sales address (the enquiry topic). */
  readonly salesMail: SalesMail;
  /** The person's own alert topic: the email subscription's confirmation, read and re-sent. */
  readonly alertRoutes: Pick<AlertEmailTopics, 'status' | 'resend'>;
  /** Cognito group membership: the roles (operator §6), read and changed by Admins. */
  readonly groups: UserGroups;
  /** The administrative changes (issue 18): read, and appended to by the write port. */
  readonly audit: AuditReader;
  readonly auditWrite: AuditRepository;
  /** The farms' milking windows (operator §3 Farm settings row): read, and written by the import. */
  readonly milkingWindows: MilkingWindowsReader;
  readonly milkingWindowsWrite: MilkingWindowsRepository;
  /** Watchman (issue 22): settings, runs and open cases; the write port saves the settings. */
  readonly watchman: WatchmanReader;
  readonly watchmanWrite: WatchmanSettingsWriter;
  readonly flagEditors: FlagEditors;
  readonly verifier: TokenVerifier;
  readonly botCheck: BotCheck;
  readonly devices: DeviceCommands;
  /** Check Install's command/reply exchange with a farm's unit (dts/<unit>/cmd/check): the installer's alone. */
  readonly unitChecks: UnitChecks;
  /** The IoT thing registry (device names). */
  readonly thingRegistry: ThingRegistry;
  /** IoT provisioning of a farm's unit (thing, certificate, policy): the installer's alone. */
  readonly provisioning: UnitProvisioning;
  readonly now: () => Date;
  /** The live-updates WebSocket's connections and the farm each watches (issue 26). */
  readonly connections: ConnectionsRepository;
  /** Messages to WebSocket connections (API Gateway's management API, @connections). */
  readonly liveSender: LiveSender;
}
export type PortName = keyof Ports;

/** Loads the ports a call will use before it runs (lazyPorts); tests that pass their own ports have none. */
export interface PortLoader {
  load(names: readonly PortName[]): Promise<void>;
}

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
