/**
 * The names the functions write metrics under and the stack reads them by (the alarms, the
 * operators' dashboard): one namespace; the Powertools metrics carry one dimension, `service`,
 * every function's POWERTOOLS_SERVICE_NAME. Writing them is lambdas/lib/metrics.ts.
 */
export const METRICS_NAMESPACE = 'VatMan';
export const SERVICE_NAME = 'vat-man';

/** The Powertools metrics (dimension `service`), by name. */
export const METRIC = {
  /** Device messages the ingest handled and kept (stored, late, duplicate or a knode's), per batch. */
  messagesIngested: 'MessagesIngested',
  /** Device messages the ingest refused (kept in the rejected store with a reason). */
  readingsRejected: 'ReadingsRejected',
  /** From the reading that raised an alert to its first text or email leaving (ms); escalations are late on purpose and not counted. */
  alertLatency: 'AlertLatency',
  /** Alert texts sent. */
  textsSent: 'TextsSent',
  /** Alert emails sent. */
  emailsSent: 'EmailsSent',
  /** Alert web pushes sent (accepted by the browser's push service). */
  pushesSent: 'PushesSent',
  /** Watchman cases opened by a run. */
  watchmanCasesOpened: 'WatchmanCasesOpened',
} as const;
export type MetricName = (typeof METRIC)[keyof typeof METRIC];

/** The channels an alert goes out on, and the metric counting each. */
export const SENT_METRIC = { sms: METRIC.textsSent, email: METRIC.emailsSent, push: METRIC.pushesSent } as const satisfies Record<string, MetricName>;
export type SentChannel = keyof typeof SENT_METRIC;

/** Alert deliveries that ended in the dead-letter state (the delivery queue gave up on them); no dimensions. */
export const DELIVERY_DEAD_LETTERS = 'DeliveryDeadLetters';

/** Dairy-company events the gateway refused (a verdict on the event: they wait for an operator's resend); no dimensions. */
export const DAIRY_EVENTS_REFUSED = 'DairyEventsRefused';

/** Tries the dairy-company gateway answered 401/403: its token in SSM is expired or was rotated without the parameter; no dimensions. */
export const DAIRY_TOKEN_REFUSED = 'DairyTokenRefused';
