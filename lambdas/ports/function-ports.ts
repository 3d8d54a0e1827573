import type { EndpointPath } from '../../shared/api/endpoints';
import type { PortName } from './action-ports';

/*
 * Each function's ports: what it loads at its cold start (lambdas/composition/ports-from-env.ts)
 * and what the stack grants it (cdk/lib/port-grants.ts). Here at the bottom layer so the stack
 * reads the lists without importing the functions.
 */

/** The alert notifier's and engine's ports (lambdas/alerts/deps.ts), run by the ingest and the sweep. */
export const ALERT_NOTIFIER_PORTS = ['farms', 'alertSettings', 'alertsWrite', 'alertSender', 'pushRecipients', 'pushSender', 'now'] as const satisfies readonly PortName[];
export const ALERT_PROCESSOR_PORTS = [...ALERT_NOTIFIER_PORTS, 'milkingWindows', 'pickupList'] as const satisfies readonly PortName[];
/** The live push's ports: loaded only where the live-updates API is configured (LIVE_ENDPOINT). */
export const LIVE_PUSH_PORTS = ['connections', 'liveSender'] as const satisfies readonly PortName[];
/** The ingest: its stores, the alert engine's ports, the live push. */
export const INGEST_PORTS = ['ingestRecords', 'readingsWrite', 'ingestCounters', ...ALERT_PROCESSOR_PORTS, ...LIVE_PUSH_PORTS] as const satisfies readonly PortName[];
/** The alert sweep: the notifier's and the engine's ports. */
export const ALERT_SWEEP_PORTS = ALERT_PROCESSOR_PORTS satisfies readonly PortName[];
/** Devices' answers to commands (cdk/lib/constructs/alert-engine.ts). */
export const DEVICE_REPLY_PORTS = ['deviceReplies'] as const satisfies readonly PortName[];
/** Watchman (cdk/lib/constructs/watchman.ts). */
export const WATCHMAN_PORTS = ['farms', 'farmFlags', 'readingsHistory', 'watchmanDigests', 'dairy', 'alertHistory', 'watchmanRuns', 'now'] as const satisfies readonly PortName[];
/** The dairy-company sync (cdk/lib/constructs/dairy-link.ts). */
export const DAIRY_SYNC_PORTS = ['farms', 'readingsHistory', 'alertsWrite', 'dairyWrite', 'watchman', 'dairyGateway', 'now'] as const satisfies readonly PortName[];
/** The install reconciler (cdk/lib/constructs/install-reconciler.ts). */
export const INSTALL_RECONCILER_PORTS = ['installs', 'provisioning', 'now'] as const satisfies readonly PortName[];
/** The live-updates WebSocket function (cdk/lib/constructs/live.ts). */
export const LIVE_PORTS = ['verifier', 'connections', 'farms', 'liveSender', 'liveAuthority'] as const satisfies readonly PortName[];
/** Cognito's triggers (cdk/lib/vat-man-stack.ts, cdk/lib/constructs/alert-engine.ts). */
export const PRE_TOKEN_GENERATION_PORTS = ['totpStatus'] as const satisfies readonly PortName[];
export const PRE_SIGN_UP_PORTS = ['botCheck'] as const satisfies readonly PortName[];
export const POST_CONFIRMATION_PORTS = ['alertTopics'] as const satisfies readonly PortName[];

/**
 * Each API endpoint's function: the ports its actions name and their access rules need. A test
 * (lambdas/api/actions-by-endpoint.test.ts) checks each list is exactly what the endpoint's actions
 * need (`portsOf`), so a grant never drifts from the code it serves.
 */
export const ENDPOINT_PORTS: Readonly<Record<EndpointPath, readonly PortName[]>> = {
  '/api/user': ['alertStatus', 'alertTopics', 'botCheck', 'farms', 'identity', 'now', 'organizations', 'pushAckVerifier', 'userProfiles'],
  '/api/farmer/dashboard': ['farms'],
  '/api/farmer/notification': ['alerts', 'alertsWrite', 'farms', 'now', 'readings'],
  '/api/farmer/setting': ['alertSettings', 'alertSettingsWrite', 'alerts', 'alertsWrite', 'devices', 'farms', 'now', 'units'],
  '/api/setting/profile': ['account', 'alertRoutes', 'farms', 'now', 'pushConfig', 'pushSubscriptions', 'userProfiles'],
  '/api/farmer/activity': ['alerts', 'alertsWrite', 'dairy', 'farms', 'herdNotes', 'now', 'pickupList', 'pickups', 'readings', 'watchman'],
  '/api/farmer/organization': ['alerts', 'farms', 'now', 'organizations', 'organizationsWrite'],
  '/api/farmer/equipment': ['equipment', 'equipmentWrite', 'farms', 'now'],
  '/api/farmer/log/fonterra': ['dairy', 'dairyWrite', 'farms', 'now'],
  '/api/farmer/survey': ['enquiries', 'farms', 'now', 'salesMail'],
  '/api/admin/user': ['audit', 'auditWrite', 'auditedChanges', 'farms', 'groups', 'now'],
  '/api/admin/device': ['audit', 'auditedChanges', 'deadLetterQueue', 'farms', 'fleetLookups', 'fleetStats', 'now', 'readings', 'thingRegistry', 'units', 'watchman'],
  '/api/admin/farm': ['alerts', 'audit', 'auditedChanges', 'farms', 'flagEditors', 'milkingWindows', 'now', 'organizations'],
  '/api/milkquality': ['farms', 'lookups', 'now', 'readings'],
  '/api/installer': ['auditedChanges', 'devices', 'farms', 'farmsWrite', 'installs', 'now', 'provisioning', 'readings', 'unitChecks', 'units'],
  '/api/calibration': ['dairy', 'farms', 'now', 'pickupList', 'readings', 'watchman'],
  '/api/watchman': ['audit', 'farms', 'now', 'watchman', 'watchmanSettingsChanges'],
};
