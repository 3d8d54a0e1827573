/**
 * Custom CloudWatch metrics, written as Embedded Metric Format log lines (CloudWatch Logs turns a
 * line with an `_aws` key into a metric; no SDK call, no extra permission). The alarms on them are
 * in cdk/lib/constructs/operator-alarms.ts; the names in lambdas/ports/metric-names.ts.
 */
import { METRICS_NAMESPACE } from '../ports/metric-names';

/**
 * The fields that make a JSON log line an EMF record adding `count` to a metric of the VatMan
 * namespace (no dimensions): spread into a logger call's extra fields, so the alarm watches what
 * the log already says.
 */
export const metricFields = (name: string, count: number, at: Date = new Date()): Record<string, unknown> => ({
  _aws: { Timestamp: at.getTime(), CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [[]], Metrics: [{ Name: name, Unit: 'Count' }] }] },
  [name]: count,
});
