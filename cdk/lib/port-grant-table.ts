/**
 * What each port may do, as IAM grants (the table grantPorts in port-grants.ts applies): one
 * entry per port, with the reason a person reads in docs/permissions.md.
 */
import { ENQUIRY_KEY_PREFIX } from '../../lambdas/ports/enquiries';
import { WATCHMAN_PARTITIONS } from '../../lambdas/ports/watchman';
import { FLEET_STATS_KEY_PREFIX } from '../../lambdas/ports/fleet';
import type { TableDefinition } from '../../shared/data/tables';
import type { PortName } from '../../lambdas/ports/action-ports';
import type { TableAction } from './constructs/vat-man-function';


/** Web Push's configuration (cdk/lib/app.ts context): the public key is public (config.json has it too). */
export interface PushGrantConfig {
  readonly publicKey: string;
  /** An SSM SecureString holding the VAPID private key (base64url). */
  readonly privateKeyParameterName: string;
  /** The VAPID subject (mailto: or https:) push services may contact. */
  readonly subject: string;
  /** The public API endpoint a service worker sends acknowledgements to (the site's /api/user). */
  readonly ackUrl: string;
}

/**
 * What each port of lambdas/ports/action-ports.ts needs in AWS. An API function gets the union of its
 * actions' ports (lambdas/api/actions-by-endpoint.ts, `portsOf`), every other function the ports of
 * the constant beside its handler (e.g. INGEST_PORTS), and nothing else: a function whose code only
 * reads a table can only read it.
 */
type PortGrant =
  /** The DynamoDB actions the port's adapter sends, on the whole table (and its indexes if it queries). */
  | { readonly kind: 'table'; readonly table: TableDefinition['id']; readonly actions: readonly TableAction[] }
  /**
   * Write actions (PutItem unless named) on the items of a table whose partition key starts with
   * `prefix`, or is exactly `equals` (dynamodb:LeadingKeys): IAM has no condition on the sort key.
   */
  | {
      readonly kind: 'tableKeys';
      readonly table: TableDefinition['id'];
      readonly key: { readonly prefix: string } | { readonly equals: string };
      readonly actions?: readonly TableAction[];
      readonly why: string;
    }
  | { readonly kind: 'cognito'; readonly actions: readonly string[] }
  /** iot:Publish of controller settings (dts/<thing>/cmd/settings), with the data endpoint. */
  | { readonly kind: 'deviceCommands' }
  /** iot:Publish of Check Install's command to units (dts/unit-<imei>/cmd/check), with the data endpoint. */
  | { readonly kind: 'unitCheckCommands' }
  /** ssm:GetParameter of the reCAPTCHA secret (a SecureString under the aws/ssm key), where the bot-check is on. */
  | { readonly kind: 'botCheckSecret' }
  /** sns:Publish to the enquiry topic (the sales address is subscribed to it), with its ARN. */
  | { readonly kind: 'enquiryTopic' }
  /** The users' alert topics (CreateTopic, Subscribe, Unsubscribe, subscription attributes; no Publish), with their ARN prefix. */
  | { readonly kind: 'alertRoutes' }
  /** As alertRoutes, and sns:Publish to those topics (texts and emails). */
  | { readonly kind: 'alertPublish' }
  /** ssm:GetParameter of the dairy gateway's token (a SecureString), with the gateway's URL and the parameter's name. */
  | { readonly kind: 'dairyGateway' }
  /** ssm:GetParameter of the VAPID private key (a SecureString), with the public key, subject, parameter name and acknowledgement URL. */
  | { readonly kind: 'pushVapid' }
  /** The VAPID public key in the environment (checking acknowledgements); no AWS call. */
  | { readonly kind: 'pushPublicKey' }
  /**
   * IoT provisioning of farm units (NEW_INSTALL): things named unit-*, certificates, and the
   * device policy alone, with its name in IOT_DEVICE_POLICY.
   */
  | { readonly kind: 'iotProvisioning' }
  /** sqs:GetQueueAttributes on the ingest's dead-letter queue (its count, never its messages), with its URL. */
  | { readonly kind: 'deadLetterQueue' }
  /** execute-api:ManageConnections on the live-updates WebSocket API's @connections (posting to a connection), with its endpoint. */
  | { readonly kind: 'liveConnections' }
  /** Actions with no resource-level permission in IAM (resource `*`), each with its reason. */
  | { readonly kind: 'accountWide'; readonly actions: readonly string[]; readonly why: string };

/**
 * The actions each adapter sends (lambdas/adapters/dynamodb): GetCommand, BatchGetCommand and
 * QueryCommand read; no adapter scans, so no port grants Scan; a write port names the writes its
 * adapter sends, DeleteItem only where it sends a DeleteCommand.
 */
const READ = ['GetItem', 'BatchGetItem', 'Query'] as const satisfies readonly TableAction[];
const read = (table: TableDefinition['id']): PortGrant => ({ kind: 'table', table, actions: READ });
const readWrite = (table: TableDefinition['id'], ...writes: TableAction[]): PortGrant => ({ kind: 'table', table, actions: [...READ, ...writes] });
/** The ingest's writes of one key family of the Readings table: herd notes (H#) and Watchman's digests (W#) stay out of its reach. */
const readingKeys = (prefix: string, actions: TableAction[], why: string): PortGrant => ({ kind: 'tableKeys', table: 'Readings', key: { prefix }, actions, why });
/** Writes of a person's own items in the Farms table (pk USER#<id>: profile, listing entry, alert route). */
const userKeys = (...actions: TableAction[]): PortGrant => ({
  kind: 'tableKeys',
  table: 'Farms',
  key: { prefix: 'USER#' },
  actions,
  why: "A person's profile, listing entry and alert route are items of their own partition (pk USER#<id>), never a farm's, an organization's or Watchman's",
});

/** The partitions an audited change writes (lambdas/adapters/dynamodb/audit-repository.ts `itemsOf`). */
const AUDITED_KEYS: readonly ({ readonly prefix: string } | { readonly equals: string })[] = [
  { prefix: 'AUDIT#' },
  { prefix: 'FARM#' },
  { prefix: 'USER#' },
  { prefix: 'UNIT#' },
  { prefix: 'DEVICE#' },
  { prefix: 'THING#' },
  { equals: 'WATCHMAN' },
];

export const PORT_GRANTS: Readonly<Record<PortName, readonly PortGrant[]>> = {
  farms: [read('Farms')],
  // Users and farms (PutItem, UpdateItem), devices, things and knode assets.
  farmsWrite: [readWrite('Farms', 'PutItem', 'UpdateItem')],
  // A farm item, its listing, its devices and their things (no key prefix covers them all), deleted by a failed install's undo.
  farmRemoval: [{ kind: 'table', table: 'Farms', actions: ['DeleteItem'] }],
  userProfiles: [read('Farms'), userKeys('PutItem', 'UpdateItem')],
  farmFlags: [
    read('Farms'),
    {
      kind: 'tableKeys',
      table: 'Farms',
      key: { prefix: 'FARM#' },
      actions: ['UpdateItem'],
      why: "A flag is set by an UpdateItem of the farm item (pk FARM#<farm>, sk FARM); IAM cannot confine the sort key, so the farm's other items share the grant, for UpdateItem alone",
    },
  ],
  ingestRecords: [
    read('Farms'),
    {
      kind: 'tableKeys',
      table: 'Farms',
      key: { prefix: 'DEVICE#' },
      actions: ['UpdateItem'],
      why: "The ingest's state and the device's live values are an UpdateItem of the device item (pk DEVICE#<device>) under a version check",
    },
    {
      kind: 'tableKeys',
      table: 'Farms',
      key: { prefix: 'FARM#' },
      why: "A knode gateway's asset reading is put under its farm (pk FARM#<farm>, sk KNODE#<asset>); IAM cannot confine the sort key, so the farm's other items share the grant, for PutItem alone",
    },
  ],
  // Reads only: a range read keeps an open day in memory, never in the table.
  readings: [read('Readings')],
  // Readings in batches, buckets, snapshots, open days' drop markers (UpdateItem), activities (a replaced one is deleted), rejected messages.
  readingsWrite: [
    read('Readings'),
    readingKeys('R#', ['PutItem', 'BatchWriteItem'], "A device's readings with their raw payloads (pk R#<device>#<day>), put one by one or in batches"),
    readingKeys('B#', ['PutItem'], "A closed day's bucket (pk B#<device>)"),
    readingKeys('P#', ['UpdateItem'], "An open day's drop marker (pk P#<device>), whose generation an UpdateItem bumps when a late reading arrives"),
    readingKeys('S#', ['PutItem'], 'A replay snapshot (pk S#<device>)'),
    readingKeys('A#', ['PutItem', 'DeleteItem'], 'A derived activity (pk A#<device>); a replaced one is deleted'),
    readingKeys('X#', ['PutItem'], 'A rejected message (pk X#<day>)'),
  ],
  herdNotes: [{ kind: 'tableKeys', table: 'Readings', key: { prefix: 'H#' }, why: "The farmer's herd note on a milking is put under its own keys (pk H#<device>), never over the ingest's readings or activities" }],
  alerts: [read('Alerts')],
  alertsWrite: [
    read('Alerts'),
    {
      kind: 'tableKeys',
      table: 'Alerts',
      key: { prefix: 'FARM#' },
      actions: ['PutItem', 'UpdateItem', 'DeleteItem'],
      why: "A farm's notifications, open conditions (deleted when they clear), deliveries and text counts, all in its partition (pk FARM#<farm>)",
    },
    { kind: 'tableKeys', table: 'Alerts', key: { prefix: 'DEVICE#' }, why: "The alert engine's state per device (pk DEVICE#<device>, sk ENGINE); command replies (CMD#) stay out of reach" },
  ],
  alertSettings: [read('Farms')],
  alertSettingsWrite: [readWrite('Farms', 'PutItem')],
  pickups: [
    read('Farms'),
    {
      kind: 'tableKeys',
      table: 'Farms',
      key: { prefix: 'FARM#' },
      actions: ['PutItem', 'DeleteItem'],
      why: "A pickup is put and deleted under its farm's partition (pk FARM#<farm>, sk PICKUP#…); IAM cannot confine the sort key, so the farm's other items share the grant",
    },
  ],
  pickupList: [read('Farms')],
  equipment: [read('Farms')],
  equipmentWrite: [readWrite('Farms', 'PutItem')],
  organizations: [read('Farms')],
  organizationsWrite: [
    read('Farms'),
    {
      kind: 'tableKeys',
      table: 'Farms',
      key: { prefix: 'ORG#' },
      actions: ['PutItem', 'DeleteItem'],
      why: "An organization, its farm links and its users' roles are put and deleted in the organization's partition (pk ORG#<id>) alone",
    },
  ],
  dairy: [read('Farms')],
  lookups: [
    read('Farms'),
    { kind: 'tableKeys', table: 'Farms', key: { prefix: 'LOOKUP#' }, why: 'A milk-data lookup is logged as an item of its own (pk LOOKUP#<farm>): the one write of the partner views' },
  ],
  // Units and the install log are items of the Farms table (UNIT#, INSTALL#) beside the farms and devices they describe.
  installs: [readWrite('Farms', 'PutItem', 'DeleteItem')],
  units: [read('Farms')],
  // Sign-in, sign-up, ForgotPassword and ConfirmForgotPassword are unauthenticated Cognito calls.
  identity: [{ kind: 'cognito', actions: ['cognito-idp:AdminCreateUser', 'cognito-idp:AdminSetUserPassword', 'cognito-idp:AdminDeleteUser'] }],
  // Codes, checks and the password change are authorized by the person's own access token (no IAM).
  account: [{ kind: 'cognito', actions: ['cognito-idp:AdminUpdateUserAttributes', 'cognito-idp:AdminGetUser', 'cognito-idp:AdminUserGlobalSignOut'] }],
  enquiries: [{ kind: 'tableKeys', table: 'Farms', key: { prefix: ENQUIRY_KEY_PREFIX }, why: 'An enquiry is written once under its own keys (ENQUIRY#<user>) and never read back by the API' }],
  salesMail: [{ kind: 'enquiryTopic' }],
  // The route (topic, subscriptions, email status) is kept in the Farms table, under the user (USER#<id> / ALERT_EMAIL).
  alertRoutes: [{ kind: 'alertRoutes' }, read('Farms'), userKeys('PutItem')],
  // Roles are group memberships (operator §6): the Users page lists and changes them.
  groups: [{ kind: 'cognito', actions: ['cognito-idp:AdminAddUserToGroup', 'cognito-idp:AdminRemoveUserFromGroup', 'cognito-idp:ListUsersInGroup'] }],
  audit: [read('Farms')],
  auditWrite: [{ kind: 'tableKeys', table: 'Farms', key: { prefix: 'AUDIT#' }, why: 'An audit entry is put once under its own keys (pk AUDIT#<page>), before the Cognito change it records' }],
  // TransactWriteItems has no IAM action of its own: each item is authorized as the PutItem or UpdateItem it is.
  auditedChanges: AUDITED_KEYS.map((key) => ({
    kind: 'tableKeys' as const,
    table: 'Farms' as const,
    key,
    actions: ['PutItem', 'UpdateItem'] as const,
    why: 'An operator change and its audit entry are one transaction (decision 050) on these items alone: farm flags and package (FARM#), herd flags (USER#), units (UNIT#), devices, their listings and things (DEVICE#, THING#), milking windows (FARM#), Watchman settings (WATCHMAN) and the entry (AUDIT#)',
  })),
  watchmanSettingsChanges: [{ prefix: 'AUDIT#' }, { equals: 'WATCHMAN' }].map((key) => ({
    kind: 'tableKeys' as const,
    table: 'Farms' as const,
    key,
    actions: ['PutItem', 'UpdateItem'] as const,
    why: "SAVE_SETTINGS: Watchman's settings (WATCHMAN) and their audit entry (AUDIT#) in one transaction (decision 050)",
  })),
  milkingWindows: [read('Farms')],
  milkingWindowsWrite: [readWrite('Farms', 'PutItem')],
  watchman: [read('Farms')],
  watchmanWrite: [
    read('Farms'),
    {
      kind: 'tableKeys',
      table: 'Farms',
      key: { equals: WATCHMAN_PARTITIONS.settings },
      why: "SAVE_SETTINGS puts Watchman's settings item (pk WATCHMAN, sk SETTINGS), alone in its partition: the lease, runs and cases are the job's, each in a partition of its own",
    },
  ],
  // The list is configuration (FARM_FLAG_USER_IDS, set by the Api construct), no AWS call.
  flagEditors: [],
  fleetStats: [read('Farms'), read('Alerts')],
  fleetLookups: [read('Farms')],
  deadLetterQueue: [{ kind: 'deadLetterQueue' }],
  ingestCounters: [
    {
      kind: 'tableKeys',
      table: 'Alerts',
      key: { prefix: FLEET_STATS_KEY_PREFIX },
      actions: ['UpdateItem'],
      why: "The ingest adds each batch to its hour's counter item (pk STATS#INGEST): the fleet counters' partitions alone, never a farm's alerts",
    },
  ],
  // The JWKS is public.
  verifier: [],
  botCheck: [{ kind: 'botCheckSecret' }],
  // The command and its reply wait in the Alerts table (lambdas/adapters/iot/device-commands.ts).
  devices: [readWrite('Alerts', 'PutItem'), { kind: 'deviceCommands' }],
  // The check goes out on the unit's check topic; its reply waits in the Alerts table (read only here).
  unitChecks: [read('Alerts'), { kind: 'unitCheckCommands' }],
  thingRegistry: [{ kind: 'accountWide', actions: ['iot:ListThings'], why: 'iot:ListThings has no resource-level permission: IAM accepts only "*" for it; it reads thing names and attributes, nothing else' }],
  provisioning: [
    { kind: 'iotProvisioning' },
    {
      kind: 'accountWide',
      actions: ['iot:CreateKeysAndCertificate', 'iot:DescribeEndpoint'],
      why: 'iot:CreateKeysAndCertificate and iot:DescribeEndpoint have no resource-level permission: IAM accepts only "*" for them; a new install makes its unit one certificate and reads the account data endpoint the unit connects to',
    },
  ],
  now: [],
  // A renewal moves `until` (UpdateItem); a connection's items are deleted when it closes or moves to another farm.
  connections: [readWrite('Connections', 'PutItem', 'UpdateItem', 'DeleteItem')],
  liveSender: [{ kind: 'liveConnections' }],
  // GetUser (the session check) is authorized by the person's own access token: no IAM action.
  liveAuthority: [{ kind: 'cognito', actions: ['cognito-idp:AdminGetUser', 'cognito-idp:AdminListGroupsForUser'] }],
  readingsHistory: [read('Readings')],
  alertHistory: [read('Alerts')],
  // The route (topic, subscriptions, email status) is kept in the Farms table, under the user (USER#<id> / ALERT_EMAIL).
  alertSender: [{ kind: 'alertPublish' }, read('Farms'), userKeys('PutItem')],
  alertTopics: [{ kind: 'alertRoutes' }, read('Farms'), userKeys('PutItem')],
  deviceReplies: [
    {
      kind: 'tableKeys',
      table: 'Alerts',
      key: { prefix: 'CMD#' },
      why: "A device's reply is put once under its command's keys (pk CMD#<request id>), where the call that sent the command reads it; the function reads nothing",
    },
  ],
  // Events are queued (PutItem) and marked sent (UpdateItem); dockets are put.
  dairyWrite: [readWrite('Farms', 'PutItem', 'UpdateItem')],
  dairyGateway: [{ kind: 'dairyGateway' }],
  // The job reads its settings and writes neither them nor anything else of the table's.
  watchmanRuns: [
    read('Farms'),
    {
      kind: 'tableKeys',
      table: 'Farms',
      key: { equals: WATCHMAN_PARTITIONS.lease },
      actions: ['PutItem', 'DeleteItem'],
      why: "Watchman's run lease (pk WATCHMAN#LEASE): taken by a conditional put, released by a delete",
    },
    { kind: 'tableKeys', table: 'Farms', key: { equals: WATCHMAN_PARTITIONS.runs }, why: "Watchman's runs (pk WATCHMAN#RUN), put once when a run ends" },
    {
      kind: 'tableKeys',
      table: 'Farms',
      key: { equals: WATCHMAN_PARTITIONS.cases },
      actions: ['PutItem', 'DeleteItem'],
      why: "Watchman's cases (pk WATCHMAN#CASE): opened by a conditional put, an open one deleted when it closes",
    },
  ],
  // Digests are items of their own (pk W#<device>) beside the readings they summarise, written in batches.
  watchmanDigests: [
    read('Readings'),
    { kind: 'tableKeys', table: 'Readings', key: { prefix: 'W#' }, actions: ['BatchWriteItem'], why: "Watchman's hourly digests are written in batches under their own keys (pk W#<device>) beside the readings they summarise" },
  ],
  totpStatus: [{ kind: 'cognito', actions: ['cognito-idp:AdminGetUser'] }],
  pushSubscriptions: [
    read('Farms'),
    {
      kind: 'tableKeys',
      table: 'Farms',
      key: { prefix: 'USER#' },
      actions: ['PutItem', 'DeleteItem'],
      why: "A browser's push subscription is an item of its user's partition (pk USER#<id>, sk PUSH#…), put when it subscribes and deleted when it unsubscribes or its push service says it is gone",
    },
  ],
  pushRecipients: [
    read('Farms'),
    {
      kind: 'tableKeys',
      table: 'Farms',
      key: { prefix: 'USER#' },
      actions: ['DeleteItem'],
      why: "The notifier removes a browser's push subscription (pk USER#<id>, sk PUSH#…) when its push service answers 404 or 410; it never puts one",
    },
  ],
  // Configuration (PUSH_ALLOW_LOCAL_ENDPOINTS, set on the local stack only), no AWS call.
  pushConfig: [],
  pushSender: [{ kind: 'pushVapid' }],
  pushAckVerifier: [{ kind: 'pushPublicKey' }],
  alertStatus: [
    read('Alerts'),
    {
      kind: 'tableKeys',
      table: 'Alerts',
      key: { prefix: 'FARM#' },
      actions: ['UpdateItem'],
      why: "An acknowledged push marks its notification read (UpdateItem of pk FARM#<farm>, sk N#<alert>); IAM cannot confine the sort key, so the farm's other alert items share the grant, for UpdateItem alone",
    },
  ],
};

