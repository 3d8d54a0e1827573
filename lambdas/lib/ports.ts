import { botCheckFromEnv, type BotCheck } from '../adapters/bot-check/bot-check';
import { accountServiceFromEnv, type AccountService } from '../adapters/cognito/account';
import { identityProviderFromEnv, type IdentityProvider } from '../adapters/cognito/identity-provider';
import { userGroupsFromEnv, type UserGroups } from '../adapters/cognito/user-groups';
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
import { deviceCommandsFromEnv, unitChecksFromEnv, type DeviceCommands, type UnitChecks } from '../adapters/iot/device-commands';
import { provisioningFromEnv, type UnitProvisioning } from '../adapters/iot/provisioning';
import { thingRegistryFromEnv, type ThingRegistry } from '../adapters/iot/thing-registry';
import type { AlertEmailTopics } from '../adapters/sns/alert-email';
import { alertEmailTopicsFromEnv } from '../adapters/sns/alert-sender';
import { salesMailFromEnv, type SalesMail } from '../adapters/sns/sales-mail';
import { liveSenderFromEnv, type LiveSender } from '../adapters/apigateway/live-sender';
import { dynamoConnectionsRepository, type ConnectionsRepository } from '../adapters/dynamodb/connections-repository';
import { requireEnv } from './env';
import { tokenVerifierFromEnv, type TokenVerifier } from './token-verifier';

/** What the read ports offer: the repositories' reads only (cdk/lib/port-grants.ts grants them read access). */
export type FarmReader = Pick<
  FarmRepository,
  'getUser' | 'findUserByEmail' | 'listUsers' | 'listFarmIdsOfUser' | 'isLinked' | 'getFarm' | 'getFarms' | 'findFarmBySupplyNumber' | 'listFarms' | 'getDevice' | 'listDevicesOfFarm' | 'listDevices' | 'listKnodeAssets'
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

/**
 * The composition root of every API Lambda: each port is built from the environment the first
 * time an action asks for it, so a function never needs the configuration (or the grants) of a
 * port it does not use, and a cold start builds nothing it will not call.
 */
export const lazyPorts = (env: NodeJS.ProcessEnv = process.env): Ports => {
  let doc: ReturnType<typeof createDocumentClient> | undefined;
  const documentClient = () => (doc ??= createDocumentClient(env));
  const builders: { [K in PortName]: () => Ports[K] } = {
    farms: () => ports.farmsWrite,
    farmsWrite: () => dynamoFarmRepository(documentClient(), requireEnv('FARMS_TABLE', env)),
    readings: () => ports.readingsWrite,
    readingsWrite: () => dynamoReadingsRepository(documentClient(), requireEnv('READINGS_TABLE', env)),
    alerts: () => ports.alertsWrite,
    alertsWrite: () => dynamoAlertsRepository(documentClient(), requireEnv('ALERTS_TABLE', env)),
    alertSettings: () => ports.alertSettingsWrite,
    alertSettingsWrite: () => dynamoAlertSettingsRepository(documentClient(), requireEnv('FARMS_TABLE', env)),
    pickups: () => dynamoPickupRepository(documentClient(), requireEnv('FARMS_TABLE', env)),
    pickupList: () => ports.pickups,
    equipment: () => ports.equipmentWrite,
    equipmentWrite: () => dynamoEquipmentRepository(documentClient(), requireEnv('FARMS_TABLE', env)),
    organizations: () => ports.organizationsWrite,
    organizationsWrite: () => dynamoOrganizationRepository(documentClient(), requireEnv('FARMS_TABLE', env)),

    dairy: () => dynamoDairyRepository(documentClient(), requireEnv('FARMS_TABLE', env)),
    lookups: () => dynamoLookupRepository(documentClient(), requireEnv('FARMS_TABLE', env)),
    installs: () => dynamoInstallRepository(documentClient(), requireEnv('FARMS_TABLE', env)),
    units: () => dynamoInstallRepository(documentClient(), requireEnv('FARMS_TABLE', env)),
    identity: () => identityProviderFromEnv(env),
    account: () => accountServiceFromEnv(env),
    enquiries: () => dynamoEnquiryRepository(documentClient(), requireEnv('FARMS_TABLE', env)),
    salesMail: () => salesMailFromEnv(env),
    alertRoutes: () => alertEmailTopicsFromEnv(ports.alertSettingsWrite, env),
    groups: () => userGroupsFromEnv(env),
    audit: () => ports.auditWrite,
    auditWrite: () => dynamoAuditRepository(documentClient(), requireEnv('FARMS_TABLE', env)),
    milkingWindows: () => ports.milkingWindowsWrite,
    milkingWindowsWrite: () => dynamoMilkingWindowsRepository(documentClient(), requireEnv('FARMS_TABLE', env)),
    watchman: () => dynamoWatchmanRepository(documentClient(), requireEnv('FARMS_TABLE', env)),
    watchmanWrite: () => dynamoWatchmanRepository(documentClient(), requireEnv('FARMS_TABLE', env)),
    flagEditors: () => flagEditorsFromEnv(env),
    verifier: () => tokenVerifierFromEnv(env),
    botCheck: () => botCheckFromEnv(env),
    devices: () => deviceCommandsFromEnv(env),
    unitChecks: () => unitChecksFromEnv(env),
    thingRegistry: () => thingRegistryFromEnv(env),
    provisioning: () => provisioningFromEnv(env),
    now: () => () => new Date(),
    connections: () => dynamoConnectionsRepository(documentClient(), requireEnv('CONNECTIONS_TABLE', env)),
    liveSender: () => liveSenderFromEnv(env),
  };
  const built: Partial<Record<PortName, unknown>> = {};
  const ports = {} as Ports;
  for (const name of Object.keys(builders) as PortName[]) {
    Object.defineProperty(ports, name, {
      enumerable: true,
      get: () => (built[name] ??= builders[name]()),
    });
  }
  return ports;
};
