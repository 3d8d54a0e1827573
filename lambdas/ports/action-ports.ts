import type { AuditedChanges, AuditRepository } from './audit';
import type { AlertEmailTopics, AlertSender } from './alert-email';
import type { AlertSettingsRepository } from './alert-settings';
import type { AlertsRepository } from './alerts';
import type { BotCheck } from './bot-check';
import type { AccountService, IdentityProvider, TokenVerifier, TotpStatus, UserGroups } from './cognito';
import type { DairyGatewayClient, DairyRepository } from './dairy';
import type { EnquiryRepository, SalesMail } from './enquiries';
import type { EquipmentRepository } from './equipment';
import type { FarmRepository, FarmStore, IngestRecords, KnodeAssets, ThingOwners, UserStore } from './farms';
import type { DeadLetterQueue, FleetLookups, FleetStatsReader, IngestCounters } from './fleet';
import type { InstallRepository } from './installs';
import type { DeviceCommands, DeviceReplies, ThingRegistry, UnitChecks, UnitProvisioning } from './iot';
import type { ConnectionsRepository, LiveAuthority, LiveSender } from './live';
import type { LookupRepository } from './lookups';
import type { MilkingWindowsRepository } from './milking-windows';
import type { OrganizationRepository } from './organizations';
import type { PickupRepository } from './pickups';
import type { PushAckVerifier, PushSender, PushSubscriptionStore } from './push';
import type { ReadingsRepository } from './readings';
import type { WatchmanDigestRepository, WatchmanRepository } from './watchman';

/** What the read ports offer: the repositories' reads only (cdk/lib/port-grants.ts grants them read access). */
export type FarmReader = Pick<
  FarmRepository,
  'getUser' | 'findUserByEmail' | 'findUsersByEmail' | 'listUsers' | 'listFarmIdsOfUser' | 'isLinked' | 'getFarm' | 'getFarms' | 'findFarmBySupplyNumber' | 'listFarms' | 'getDevice' | 'listDevicesOfFarm' | 'listDevices' | 'listKnodeAssets'
>;
/** The readings' reads; a range read writes nothing (an open day is kept in the container's memory). */
type ReadingsReader = Pick<
  ReadingsRepository,
  'readPartitions' | 'readRange' | 'readRangeColumns' | 'listRaw' | 'listRawBetween' | 'getRaw' | 'listActivities' | 'getActivity' | 'latestReading' | 'latestActivity' | 'getHerdNote' | 'listRejected' | 'pageRejected'
>;
type AlertsReader = Pick<AlertsRepository, 'list' | 'listPage' | 'get' | 'smsCount' | 'smsSavedCount' | 'listDeliveries' | 'listDeadLetters' | 'getEngine'>;
type AlertSettingsReader = Pick<
  AlertSettingsRepository,
  'getFarmSettings' | 'getAutoSettings' | 'getPreferences' | 'getPreferencesOf' | 'listUserIdsOfFarm' | 'getEscalation' | 'getEscalationOf' | 'listOrganizationUserIdsOfFarm'
>;
type EquipmentReader = Pick<EquipmentRepository, 'getEquipment'>;
type AuditReader = Pick<AuditRepository, 'list'>;
type MilkingWindowsReader = Pick<MilkingWindowsRepository, 'list'>;

/** Who may set the farm flags (operator §6: a fixed list of user ids, here configuration). */
export interface FlagEditors {
  allows(userId: string): boolean;
}

type OrganizationReader = Pick<OrganizationRepository, 'getOrganization' | 'getContent' | 'listSubOrganizations' | 'getRole' | 'listOrganizationIdsOfUser' | 'listOrganizationIdsOfFarm'>;

/** The dairy-company link's records: the reports sent and the tanker dockets, read only; the exporter (lambdas/dairy) writes them. */
type DairyReader = Pick<DairyRepository, 'listEvents' | 'listDockets'>;

/** Watchman's settings, runs and open cases, read only; the job (lambdas/watchman) writes runs and cases. */
type WatchmanReader = Pick<WatchmanRepository, 'getSettings' | 'listRuns' | 'countRuns' | 'listOpenCases'>;
/** The API's one Watchman write: its settings item (a PutItem on `WATCHMAN` keys, cdk/lib/port-grants.ts). */
type WatchmanSettingsWriter = Pick<WatchmanRepository, 'putSettings'>;

/**
 * Every port a function may use. An API action names the ones it uses (lambdas/lib/dispatch.ts
 * `serve`), every other function in one constant beside its handler (e.g. INGEST_PORTS); the
 * function builds only those (lambdas/composition/ports-from-env.ts), and the stack grants it only
 * what they need (cdk/lib/port-grants.ts). A table has a read port and a write port, so code that
 * only reads cannot write, by type here and by IAM in AWS.
 */
export interface Ports {
  readonly farms: FarmReader;
  /** The farms' writes but removal (settings, flags and installs). */
  readonly farmsWrite: Omit<FarmRepository, 'deleteFarm' | 'deleteDevice'>;
  /** People's own profiles (`USER#<id>`): read, put at sign-up, changed by the profile page; no other key family. */
  readonly userProfiles: Pick<UserStore, 'getUser' | 'putUser' | 'updateUser'>;
  /** A farm's flags set (UpdateItem of the farm item, `FARM#<id>`): Watchman's sync switch. */
  readonly farmFlags: Pick<FarmStore, 'setFarmFlag'>;
  /**
   * The ingest's view of the Farms table: thing names resolved, its state on the device item
   * (`DEVICE#<id>`, UpdateItem) and knode gateways' asset readings (`FARM#<id>` / `KNODE#…`).
   */
  readonly ingestRecords: Pick<ThingOwners, 'resolveThing'> & IngestRecords & Pick<KnodeAssets, 'updateKnodeAsset'>;
  /** A farm and its devices removed: the undo of a failed new install alone. */
  readonly farmRemoval: Pick<FarmRepository, 'deleteFarm' | 'deleteDevice'>;
  readonly readings: ReadingsReader;
  /** The ingest's stores of the Readings table: everything but the farmer's herd notes (herdNotes) and Watchman's digests. */
  readonly readingsWrite: Omit<ReadingsRepository, 'putHerdNote'>;
  /** The farmer's herd note on a milking (pk H#<device>): the activity page's one write of the Readings table. */
  readonly herdNotes: Pick<ReadingsRepository, 'putHerdNote'>;
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
  readonly units: Pick<InstallRepository, 'unitOfFarm' | 'getUnit'>;
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
  /** The administrative changes: read, and appended to by the write port. */
  readonly audit: AuditReader;
  /** An entry alone, for a change outside our tables (a role: Cognito groups), written before it is asked for. */
  readonly auditWrite: Pick<AuditRepository, 'record'>;
  /** Operator changes of our items and their audit entry in one transaction (decision 050). */
  readonly auditedChanges: AuditedChanges;
  /** The same for Watchman's settings alone: its grant is the settings item and the entries, not every audited family. */
  readonly watchmanSettingsChanges: AuditedChanges;
  /** The farms' milking windows (operator §3 Farm settings row): read, and written by the import. */
  readonly milkingWindows: MilkingWindowsReader;
  readonly milkingWindowsWrite: MilkingWindowsRepository;
  /** Watchman: settings, runs and open cases; the write port saves the settings. */
  readonly watchman: WatchmanReader;
  readonly watchmanWrite: WatchmanSettingsWriter;
  readonly flagEditors: FlagEditors;
  /** The operators' overview: the seen index, the install log and the fleet counters, read only (decision 055). */
  readonly fleetStats: FleetStatsReader;
  /** The ingest's dead-letter queue, counted (SQS GetQueueAttributes). */
  readonly deadLetterQueue: DeadLetterQueue;
  /** The operator search's prefix lookups: farm names, device names, emails (decision 056). */
  readonly fleetLookups: FleetLookups;
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
  /** The live-updates WebSocket's connections and the farm each watches. */
  readonly connections: ConnectionsRepository;
  /** Messages to WebSocket connections (API Gateway's management API, @connections). */
  readonly liveSender: LiveSender;
  /** Cognito's current word on a live subscriber: their groups and whether their session stands. */
  readonly liveAuthority: LiveAuthority;

  // The ports of the functions that are not API endpoints (ingest, alert sweep, device replies,
  // dairy sync, Watchman, the Cognito triggers).
  /** A vat's stored messages and activities, read only (the dairy sync, Watchman). */
  readonly readingsHistory: Pick<ReadingsRepository, 'listActivities' | 'latestActivity' | 'listRawBetween'>;
  /** The farm's alerts since a time, read only (Watchman's plate-cooling check). */
  readonly alertHistory: Pick<AlertsRepository, 'listSince'>;
  /** Alert texts and emails through each user's own topic (the notifier). */
  readonly alertSender: AlertSender;
  /** Each user's alert topic and subscriptions, made and read (the post-confirmation trigger; the API's alertRoutes is its read and re-send). */
  readonly alertTopics: AlertEmailTopics;
  /** Devices' answers to commands, kept for the call waiting on them (the device-reply function). */
  readonly deviceReplies: DeviceReplies;
  /** The dairy company's records, written by the exporter (events queued and sent, dockets fetched). */
  readonly dairyWrite: DairyRepository;
  /** The dairy company's gateway (events out, dockets in). */
  readonly dairyGateway: DairyGatewayClient;
  /** Watchman's own records (the job): its lease, runs and cases, and its settings read only. */
  readonly watchmanRuns: Omit<WatchmanRepository, 'putSettings'>;
  /** Watchman's hourly digests of each vat's readings (W#<device> in the Readings table). */
  readonly watchmanDigests: WatchmanDigestRepository;
  /** The ingest's batch counters (`STATS#INGEST`, decision 055). */
  readonly ingestCounters: IngestCounters;
  /** When a user confirmed their authenticator app (the pre-token-generation trigger's claim). */
  readonly totpStatus: TotpStatus;

  // Web Push (decisions 090-092).
  /** A user's browsers' push subscriptions (`USER#<sub>` / `PUSH#…`): the person's own in the API, every recipient's in the notifier. */
  readonly pushSubscriptions: PushSubscriptionStore;
  /** The notifier's view: every recipient's subscriptions read, and one its push service says is gone removed (never put). */
  readonly pushRecipients: Pick<PushSubscriptionStore, 'listPushSubscriptions' | 'deletePushSubscription'>;
  /** The push configuration the API checks subscriptions against (configuration, no AWS call). */
  readonly pushConfig: { readonly allowLocalEndpoints: boolean };
  /** Pushes sent with the VAPID key (its private half from SSM), and the acknowledgements they carry signed with it (the notifier). */
  readonly pushSender: PushSender;
  /** Checks a push's acknowledgement with the VAPID public key alone (the public API). */
  readonly pushAckVerifier: PushAckVerifier;
  /** A notification's status set (an acknowledged push marks it read): UpdateItem of the farm's notification alone. */
  readonly alertStatus: Pick<AlertsRepository, 'get' | 'setStatus'>;
}
export type PortName = keyof Ports;

/** Loads the ports a call will use before it runs (portsFromEnv); tests that pass their own ports have none. */
export interface PortLoader {
  load(names: readonly PortName[]): Promise<void>;
}
