/** The CloudWatch namespace of the product's own metrics. */
export const METRIC_NAMESPACE = 'VatMan';

/**
 * Fields that make a JSON log line a CloudWatch Embedded Metric Format record: CloudWatch Logs
 * extracts `name` (no dimensions, namespace VatMan) from the line, so alarms watch what the log
 * already says. Spread into a logger call's extra fields.
 */
export const metricFields = (name: string, value: number, at: Date = new Date()): Record<string, unknown> => ({
  _aws: { Timestamp: at.getTime(), CloudWatchMetrics: [{ Namespace: METRIC_NAMESPACE, Dimensions: [[]], Metrics: [{ Name: name, Unit: 'Count' }] }] },
  [name]: value,
});
