/**
 * Alerts (farmer spec §3 Notification, Notification types, Alert setting; §2.8; §9 quality
 * alert types). The engine (./engine.ts) raises them; the notifier delivers them; the
 * notification API lists them.
 */

/** Notification types (farmer §3): system alerts below 1000, dairy-company alerts above. */
export const NOTIFICATION_TYPES = {
  101: 'Temperature over 10°C',
  102: 'Temperature over 6°C',
  103: 'PlateWarm',
  104: 'TooCold',
  110: 'SlowCool',
  111: 'PickUp',
  112: 'VatControl status unknown',
  113: 'ManualOverride',
  114: 'OffPosition',
  201: 'Volume over 80%',
  301: 'Power outage',
  401: 'Agitator stopped',
  501: 'ONLINE',
  502: 'OFFLINE',
  601: 'Milking duration variance',
  701: 'Collection not collected in estimated time',
  /** Not in the spec: the vat's drop differs from the tanker's dockets (701 is the spec's collection duration). */
  702: 'Vat reading differs from tanker',
  1001: 'APC low',
  1002: 'APC moderate',
  1003: 'APC high',
  1004: 'APC acceptance risk exceeded',
  1102: 'agitator',
  1201: 'late milking',
  /** The cooling forecast misses a §9 cooling deadline (docs/architecture.md, Alerts). */
  105: 'Cooling at risk',
  /** Beyond the spec (docs/areas/alerts.md): the capacity forecast says the vat fills before the expected pickup. */
  202: 'Vat will be full before pickup',
} as const;
export type NotificationType = keyof typeof NOTIFICATION_TYPES;

/** The notification types by name, for code that raises or reads them. */
export const ALERT = {
  over10: 101,
  over6: 102,
  plateWarm: 103,
  tooCold: 104,
  coolingAtRisk: 105,
  slowCool: 110,
  pickUp: 111,
  controllerUnknown: 112,
  manualOverride: 113,
  offPosition: 114,
  volume: 201,
  fullBeforePickup: 202,
  powerOutage: 301,
  agitatorStopped: 401,
  online: 501,
  offline: 502,
  milkingDuration: 601,
  collectionOverrun: 701,
  tankerDiffers: 702,
  apcLow: 1001,
  apcModerate: 1002,
  apcHigh: 1003,
  apcRisk: 1004,
  qualityAgitator: 1102,
  lateMilking: 1201,
} as const satisfies Record<string, NotificationType>;
export const isNotificationType = (n: number): n is NotificationType => Object.hasOwn(NOTIFICATION_TYPES, n);

/** Farmer §2.8: system alerts (the Alerts tab) are below 1000; dairy-company alerts above. */
export const isSystemType = (type: number): boolean => type < 1000;

/**
 * Message types hidden from display (farmer §3: "test-event, Get Config, System Status and
 * similar"). They may be stored by device tooling; the list never shows them.
 */
export const HIDDEN_MESSAGE_TYPES: readonly string[] = ['test-event', 'Get Config', 'System Status', 'Set Config', 'Device Reply'];

/** Notification status (farmer §3, §4): 1 unread, 2 read, 3 archived. */
export const NOTIFICATION_STATUS = { unread: 1, read: 2, archived: 3 } as const;
/** An archived notification is kept this long after it was archived, then the table's TTL removes it (README). */
export const ARCHIVED_NOTIFICATION_RETENTION_DAYS = 90;
export type NotificationStatus = 1 | 2 | 3;

/** The reading that triggered an alert (farmer §3 Notification.data). */
export interface AlertData {
  readonly published_at: string;
  readonly temp1: number | null;
  readonly milk_volume: number | null;
  readonly agitator_status: 0 | 1 | null;
}

/** An alert as the engine raises it (pure; the repository adds ids, farm and status). */
export interface RaisedAlert {
  readonly type: NotificationType;
  readonly data: AlertData;
  /** Dairy-company quality figures (1001-1004: the estimate; 1102: agitator outage percent). */
  readonly quality?: { readonly value?: number; readonly agitator_outage_percent?: number };
  /** Late milking (1201): when this milking ended and when the session usually ends. */
  readonly lateMilking?: { readonly end_time_current: string; readonly end_time_schedule: string };
  /** A short description of what happened, for the messages ("10.4C at 4 h after milking start"). */
  readonly detail?: string;
}

/** A stored notification (farmer §3 Notification). */
export interface Notification {
  readonly _id: string;
  readonly farm_id: string;
  readonly type: NotificationType;
  readonly status: NotificationStatus;
  readonly data: AlertData;
  readonly quality?: RaisedAlert['quality'];
  readonly lateMilking?: { readonly end_time_current: string; readonly end_time_schedule: string };
  readonly device: { readonly _id: string; readonly name: string; readonly vat_number: number };
  readonly created_at: string;
  readonly detail?: string;
  readonly message_type?: string;
}
