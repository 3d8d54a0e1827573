/**
 * Custom CloudWatch metrics, written as Embedded Metric Format log lines (CloudWatch Logs turns a
 * line with an `_aws` key into a metric; no SDK call, no extra permission). The alarms on them are
 * in cdk/lib/constructs/operator-alarms.ts.
 */
export const METRICS_NAMESPACE = 'VatMan';

/** Alert deliveries that ended in the dead-letter state (the delivery queue gave up on them). */
export const DELIVERY_DEAD_LETTERS = 'DeliveryDeadLetters';

/** Dairy-company events the gateway refused (a verdict on the event: they wait for an operator's resend). */
export const DAIRY_EVENTS_REFUSED = 'DairyEventsRefused';

/** Tries the dairy-company gateway answered 401/403: its token in SSM is expired or was rotated without the parameter. */
export const DAIRY_TOKEN_REFUSED = 'DairyTokenRefused';

/**
 * The fields that make a JSON log line an EMF record adding `count` to a metric of the VatMan
 * namespace (no dimensions): spread into a logger call's extra fields, so the alarm watches what
 * the log already says.
 */
export const metricFields = (name: string, count: number, at: Date = new Date()): Record<string, unknown> => ({
  _aws: { Timestamp: at.getTime(), CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [[]], Metrics: [{ Name: name, Unit: 'Count' }] }] },
  [name]: count,
});
