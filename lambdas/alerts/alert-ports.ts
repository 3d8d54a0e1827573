import type { PortName } from '../ports/action-ports';

/**
 * The ports of the alert notifier and engine (lambdas/alerts/deps.ts), in a file of their own so
 * the entries that run them (the ingest, the sweep) and the stack read the list without loading
 * the engine.
 */
export const ALERT_NOTIFIER_PORTS = ['farms', 'alertSettings', 'alertsWrite', 'alertSender', 'pushRecipients', 'pushSender', 'now'] as const satisfies readonly PortName[];
export const ALERT_PROCESSOR_PORTS = [...ALERT_NOTIFIER_PORTS, 'milkingWindows', 'pickupList'] as const satisfies readonly PortName[];
