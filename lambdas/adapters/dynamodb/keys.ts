import { dayOf } from '../../../shared/time/utc';
import { ENQUIRY_KEY_PREFIX } from '../../ports/enquiries';
import { WATCHMAN_PARTITIONS as W } from '../../ports/watchman';

/**
 * Key design of the Farms table (docs/architecture.md, "Data"). One place builds every key so
 * repositories never spell them twice.
 */
export const farmsKeys = {
  userProfile: (userId: string) => ({ pk: `USER#${userId}`, sk: 'PROFILE' }),
  /** gsi1 of a profile: find a user by email. */
  userByEmail: (email: string) => ({ gsi1pk: `EMAIL#${email}`, gsi1sk: 'USER' }),
  /** A user's link to a farm; gsi1 lists a farm's users. */
  farmLink: (userId: string, farmId: string) => ({ pk: `USER#${userId}`, sk: `FARM#${farmId}` }),
  farmLinkIndex: (userId: string, farmId: string) => ({ gsi1pk: `FARM#${farmId}`, gsi1sk: `USER#${userId}` }),
  farm: (farmId: string) => ({ pk: `FARM#${farmId}`, sk: 'FARM' }),
  /** gsi1 of a farm: find it by supply number. */
  farmBySupplyNumber: (fonterraId: string) => ({ gsi1pk: `SUPPLY#${fonterraId.toUpperCase()}`, gsi1sk: 'FARM' }),
  knodeAsset: (farmId: string, assetName: string) => ({ pk: `FARM#${farmId}`, sk: `KNODE#${assetName}` }),
  /** A farm's entry in the fleet listing (gsi1 `ALL#FARM`). */
  farmListing: (farmId: string) => ({ pk: `FARM#${farmId}`, sk: 'LISTING' }),
  device: (deviceId: string) => ({ pk: `DEVICE#${deviceId}`, sk: 'DEVICE' }),
  /** A device's entry in the fleet listing (gsi1 `ALL#DEVICE`). */
  deviceListing: (deviceId: string) => ({ pk: `DEVICE#${deviceId}`, sk: 'LISTING' }),
  /** gsi1 of a device: a farm's vats in vat order. */
  deviceByFarm: (farmId: string, vatNumber: number, deviceId: string) => ({
    gsi1pk: `FARM#${farmId}`,
    gsi1sk: `VAT#${vatNumber}#${deviceId}`,
  }),
  /**
   * An MQTT thing name → what publishes under it: a vat device (device_id) or a farm's knode
   * gateway (farm_id). The ingest resolves every message's topic through this item.
   */
  thing: (thingName: string) => ({ pk: `THING#${thingName}`, sk: 'THING' }),
  /** A pickup the farmer entered (ADD_PICKUP): one per vat and time, so resubmitting corrects it. */
  pickup: (farmId: string, datetime: string, vat: number) => ({ pk: `FARM#${farmId}`, sk: `PICKUP#${datetime}#${vat}` }),
  pickupPrefix: 'PICKUP#',
  /** An enquiry (SURVEY_SUBMIT), by person and time; the prefix is the API's only write grant on these keys. */
  enquiry: (userId: string, at: string) => ({ pk: `${ENQUIRY_KEY_PREFIX}${userId}`, sk: at }),
  /** The farm's milk-cooling plant (EQUIPMENT_UPDATE): the whole set in one item, so a save replaces it in one write. */
  equipment: (farmId: string) => ({ pk: `FARM#${farmId}`, sk: 'EQUIPMENT' }),
  /**
   * A milk-data lookup by operator staff (MILK_QUALITY_DATA, WESTLANDS_DATA): its own partition
   * prefix (`LOOKUP#`), so the milk-quality function may put these items and nothing else.
   */
  lookup: (farmId: string, at: string, userId: string) => ({ pk: `LOOKUP#${farmId}`, sk: `${at}#${userId}`, gsi1pk: 'ALL#LOOKUP', gsi1sk: `${at}#${farmId}#${userId}` }),
  lookupsAll: 'ALL#LOOKUP',
  /** A farm's milking window (operator §3 Farm settings row), from the admin CSV import. */
  milkingWindow: (farmId: string) => ({ pk: `FARM#${farmId}`, sk: 'MILKING_WINDOW' }),
  /** An administrative change: one partition per admin page, sorted by time. */
  audit: (area: string, at: string, id: string) => ({ pk: `AUDIT#${area}`, sk: `${at}#${id}` }),
  auditPartition: (area: string) => `AUDIT#${area}`,
  /**
   * Organizations (farmer §2.12): the node, its farms and its users' roles share the partition
   * `ORG#<id>` (one Query reads a node's content); gsi1 lists a node's sub-organizations
   * (`ORG#<parent>` / `SUB#<id>`), a farm's organizations and a user's organizations.
   */
  organization: (orgId: string) => ({ pk: `ORG#${orgId}`, sk: 'ORG' }),
  organizationPartition: (orgId: string) => `ORG#${orgId}`,
  subOrganizationIndex: (parentId: string, orgId: string) => ({ gsi1pk: `ORG#${parentId}`, gsi1sk: `SUB#${orgId}` }),
  subOrganizationPrefix: 'SUB#',
  organizationFarm: (orgId: string, farmId: string) => ({ pk: `ORG#${orgId}`, sk: `FARM#${farmId}`, gsi1pk: `FARM#${farmId}`, gsi1sk: `ORG#${orgId}` }),
  organizationRole: (orgId: string, userId: string) => ({ pk: `ORG#${orgId}`, sk: `USER#${userId}`, gsi1pk: `USER#${userId}`, gsi1sk: `ORG#${orgId}` }),
  /**
   * An event for the dairy company: one per vat, kind and time, so detecting it again
   * finds it queued. A pending one is also in gsi1 under DAIRY#PENDING, sorted by its next try.
   */
  dairyEvent: (farmId: string, vat: number, kind: string, eventAt: string) => ({ pk: `FARM#${farmId}`, sk: `DAIRY#${vat}#${kind}#${eventAt}` }),
  dairyEventPrefix: 'DAIRY#',
  dairyPendingIndex: 'DAIRY#PENDING',
  dairyPending: (nextAt: string, pk: string, sk: string) => ({ gsi1pk: 'DAIRY#PENDING', gsi1sk: `${nextAt}~${pk}~${sk}` }),
  /** A tanker docket from the dairy company, per vat and pickup time (fetched again, it overwrites itself). */
  docket: (farmId: string, vat: number, pickupAt: string) => ({ pk: `FARM#${farmId}`, sk: `DOCKET#${vat}#${pickupAt}` }),
  docketPrefix: (vat: number) => `DOCKET#${vat}#`,
  /** A farm's controller unit by IMEI; gsi1 finds a farm's unit (its own sort-key prefix beside the farm's vats and users). */
  unit: (imei: string, farmId: string) => ({ pk: `UNIT#${imei}`, sk: 'UNIT', gsi1pk: `FARM#${farmId}`, gsi1sk: `UNIT#${imei}` }),
  /**
   * A unit's install workflow run (`kind` install or reissue); while it is not done, gsi1
   * `INSTALLRUN#OPEN` lists it by the end of its lease, for the reconciler.
   */
  installRun: (imei: string, kind: string) => ({ pk: `INSTALLRUN#${imei}`, sk: kind.toUpperCase() }),
  openRuns: 'INSTALLRUN#OPEN',
  /** A supply number taken by an install (its request and IMEI): the second install of one farm loses here. */
  supplyClaim: (supplyNumber: string) => ({ pk: `INSTALLRUN#SUPPLY#${supplyNumber.toUpperCase()}`, sk: 'CLAIM' }),
  /** The unit's own key (without its gsi1). */
  unitId: (imei: string) => ({ pk: `UNIT#${imei}`, sk: 'UNIT' }),
  /** An install log entry, by supply number and time; gsi1 `ALL#INSTALL` lists every farm's, newest first. */
  install: (supplyNumber: string, createdAt: string, id: string) => ({
    pk: `INSTALL#${supplyNumber.toUpperCase()}`,
    sk: `${createdAt}#${id}`,
    gsi1pk: 'ALL#INSTALL',
    gsi1sk: `${createdAt}#${id}`,
  }),
  installsAll: 'ALL#INSTALL',
  /**
   * Watchman: its settings and its run lease (one item each, each in a partition of its
   * own, WATCHMAN_PARTITIONS), its runs (one partition, newest last) and its cases (one partition:
   * open ones under `OPEN#`, one per farm, vat and check, so a conditional put can never open a
   * fault twice; closed ones under `CLOSED#`).
   */
  watchmanSettings: { pk: W.settings, sk: 'SETTINGS' },
  watchmanLease: { pk: W.lease, sk: 'LEASE' },
  /** Where the lease was kept before it had a partition of its own: read only, so a run under way while the change deploys is still waited for. */
  watchmanLeaseBefore: { pk: W.settings, sk: 'LEASE' },
  watchmanRun: (startedAt: string, runId: string) => ({ pk: W.runs, sk: `${startedAt}#${runId}` }),
  watchmanRunPartition: W.runs,
  watchmanOpenCase: (farmId: string, vat: number, check: string) => ({ pk: W.cases, sk: `OPEN#${farmId}#${vat}#${check}` }),
  watchmanClosedCase: (farmId: string, vat: number, check: string, openedAt: string) => ({ pk: W.cases, sk: `CLOSED#${farmId}#${vat}#${check}#${openedAt}` }),
  watchmanCasePartition: W.cases,
  /** gsi2 (the fleet index) of every device item: the device list in one query. */
  fleet: 'ALL#DEVICE',
  /**
   * gsi3 (the seen index) of every active device item, sorted by its last message (decision 055):
   * the overview counts reporting and silent units and names the oldest without reading the fleet.
   * A device that never reported sorts first, under `seenNever`.
   */
  activeFleet: 'ACTIVE#DEVICE',
  seenNever: '0000',
  /**
   * A farm's name, lower-cased, in gsi1 under `NAME#FARM` (decision 056): the operator search finds
   * farms by the start of their name, a page at a time. Its own item beside the farm, which keeps
   * its supply-number key in gsi1.
   */
  farmName: (farmId: string, name: string) => ({ pk: `FARM#${farmId}`, sk: 'NAME', gsi1pk: 'NAME#FARM', gsi1sk: `${name.trim().toLowerCase()}#${farmId}` }),
  farmNameKey: (farmId: string) => ({ pk: `FARM#${farmId}`, sk: 'NAME' }),
  farmNames: 'NAME#FARM',
  /** Fleet-wide listings (admin users, farms and devices) are one partition each in gsi1. */
  allOf: (kind: 'USER' | 'FARM' | 'DEVICE') => `ALL#${kind}`,
} as const;

/**
 * Key design of the Readings table (docs/architecture.md, "Readings table"). Day and hour are
 * UTC, taken from the reading's own published_at, so the same reading always lands on the same
 * key however late or often it arrives.
 */
export const readingsKeys = {
  /** One message: the stored reading and its raw payload (the 30-day raw archive). */
  reading: (deviceId: string, publishedAt: string) => ({ pk: readingsKeys.dayPartition(deviceId, dayOf(publishedAt)), sk: publishedAt }),
  dayPartition: (deviceId: string, day: string) => `R#${deviceId}#${day}`,
  /** A closed UTC day of a device's readings, compacted into one item (kept for good). */
  dayBucket: (deviceId: string, day: string) => ({ pk: `B#${deviceId}`, sk: day }),
  bucketPartition: (deviceId: string) => `B#${deviceId}`,
  /**
   * An open day's readings up to some instant, compacted by the read path (readRangeColumns) so a
   * dashboard range reads the day's tail, not the whole day partition; replaced by the day bucket
   * once the day closes.
   */
  partialBucket: (deviceId: string, day: string) => ({ pk: `P#${deviceId}`, sk: day }),
  /** The detector state as it was just before the first reading of an hour (for replays). */
  snapshot: (deviceId: string, hour: string) => ({ pk: `S#${deviceId}`, sk: hour }),
  snapshotPartition: (deviceId: string) => `S#${deviceId}`,
  /** Watchman's digest of one settled clock hour of a device's messages: its data point and milking ends. */
  watchmanDigest: (deviceId: string, hour: string) => ({ pk: `W#${deviceId}`, sk: hour }),
  watchmanDigestPartition: (deviceId: string) => `W#${deviceId}`,
  /** A derived activity; sk sorts a device's activities by kind, then start. */
  activity: (deviceId: string, kind: string, start: string) => ({ pk: `A#${deviceId}`, sk: `${kind}#${start}` }),
  activityPartition: (deviceId: string) => `A#${deviceId}`,
  /** The farmer's herd note on a milking: beside the activity, never overwritten by the ingest's activity writes. */
  herdNote: (deviceId: string, start: string) => ({ pk: `H#${deviceId}`, sk: start }),
  /** A rejected message; the sk is a digest of topic and payload, so a redelivery overwrites itself. */
  rejected: (day: string, digest: string) => ({ pk: `X#${day}`, sk: digest }),
  rejectedPartition: (day: string) => `X#${day}`,
} as const;


/**
 * Key design of the Alerts table (docs/architecture.md, "Alerts"). A notification's id starts
 * with the trigger reading's time, so a farm's partition sorts newest last and the same trigger
 * always writes the same key (a redelivered reading cannot raise twice).
 */
export const alertsKeys = {
  notification: (farmId: string, alertId: string) => ({ pk: `FARM#${farmId}`, sk: `N#${alertId}` }),
  notificationPrefix: 'N#',
  /** The "open condition" item: at most one per farm, device and type while the condition persists. */
  open: (farmId: string, deviceId: string, type: number) => ({ pk: `FARM#${farmId}`, sk: `OPEN#${deviceId}#${type}` }),
  /** The engine's state per device (optimistic lock on n); gsi1 lists every device for the sweep. */
  engine: (deviceId: string) => ({ pk: `DEVICE#${deviceId}`, sk: 'ENGINE' }),
  engineIndex: (deviceId: string) => ({ gsi1pk: 'ENGINE', gsi1sk: deviceId }),
  /** Sparse gsi1 entry of a notification whose delivery is not finished (the sweep retries it). */
  pendingIndex: (createdAt: string, alertId: string) => ({ gsi1pk: 'DELIVERY#PENDING', gsi1sk: `${createdAt}#${alertId}` }),
  /** One delivery of an alert: to one user on one channel (the delivery queue, notifier.ts). */
  delivery: (farmId: string, alertId: string, userId: string, channel: string) => ({ pk: `FARM#${farmId}`, sk: `D#${alertId}#${userId}#${channel}` }),
  deliveryPrefix: (alertId: string) => `D#${alertId}#`,
  /** Sparse gsi1 entry of a delivery not yet settled, sorted by when it may next be claimed. */
  deliveryDueIndex: (dueAt: string, farmId: string, alertId: string, userId: string, channel: string) => ({
    gsi1pk: 'DELIVERY#DUE',
    gsi1sk: `${dueAt}#${farmId}#${alertId}#${userId}#${channel}`,
  }),
  /** Sparse gsi1 entry of a dead-lettered delivery, newest last: the operators' list (Admin farms). */
  deadLetterIndex: (settledAt: string, farmId: string, alertId: string, userId: string, channel: string) => ({
    gsi1pk: 'DELIVERY#DEAD',
    gsi1sk: `${settledAt}#${farmId}#${alertId}#${userId}#${channel}`,
  }),
  /** A farm's texts sent in a month (farm-local YYYY-MM). */
  smsCount: (farmId: string, month: string) => ({ pk: `FARM#${farmId}`, sk: `SMS#${month}` }),
  /**
   * Fleet counters (decision 055), under the `STATS#` prefix: alerts raised per UTC hour (a count
   * and the farms per type), texts reserved per month (the notifier's month), the ingest's batches
   * per UTC hour.
   */
  statsAlerts: (hour: string) => ({ pk: 'STATS#ALERTS', sk: hour }),
  statsAlertsPartition: 'STATS#ALERTS',
  statsSms: (month: string) => ({ pk: 'STATS#SMS', sk: month }),
  statsIngest: (hour: string) => ({ pk: 'STATS#INGEST', sk: hour }),
  statsIngestPartition: 'STATS#INGEST',
  /** Farms table items: a farm's thresholds, a vat's controller settings, a user's alert preferences. */
  farmAlertSetting: (farmId: string) => ({ pk: `FARM#${farmId}`, sk: 'ALERT_SETTING' }),
  vatAutoSetting: (deviceId: string) => ({ pk: `DEVICE#${deviceId}`, sk: 'AUTO_SETTING' }),
  userAlertPreferences: (userId: string) => ({ pk: `USER#${userId}`, sk: 'ALERT_PREF' }),
  /** A user's escalation preference: minutes until an unread critical alert is sent again, and the organization opt-in. */
  userEscalation: (userId: string) => ({ pk: `USER#${userId}`, sk: 'ESCALATION' }),
  /** A user's alert-email route: their SNS topic and the subscription of their address. */
  userAlertEmail: (userId: string) => ({ pk: `USER#${userId}`, sk: 'ALERT_EMAIL' }),
  /** One browser's push subscription of a user (its id a digest of the endpoint). */
  userPushSubscription: (userId: string, id: string) => ({ pk: `USER#${userId}`, sk: `PUSH#${id}` }),
  userPushSubscriptionPrefix: 'PUSH#',
} as const;
