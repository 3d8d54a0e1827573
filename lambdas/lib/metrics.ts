/**
 * Custom CloudWatch metrics, written as Embedded Metric Format log lines (CloudWatch Logs turns a
 * line with an `_aws` key into a metric; no SDK call, no extra permission). The alarms on them are
 * in cdk/lib/constructs/operator-alarms.ts.
 */
export const METRICS_NAMESPACE = 'VatMan';

/** Alert deliveries that ended in the dead-letter state (the delivery queue gave up on them). */
export const DELIVERY_DEAD_LETTERS = 'DeliveryDeadLetters';

/** The EMF line that adds `count` to a metric of the VatMan namespace (no dimensions). */
export const metricLine = (name: string, count: number, at: Date = new Date()): string =>
  JSON.stringify({
    _aws: { Timestamp: at.getTime(), CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [[]], Metrics: [{ Name: name, Unit: 'Count' }] }] },
    [name]: count,
  });

/** Writes the metric line to stdout (the function's log stream in AWS). */
export const countMetric = (name: string, count = 1, write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): void => write(metricLine(name, count));
