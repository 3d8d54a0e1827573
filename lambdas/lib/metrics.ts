import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRIC, METRICS_NAMESPACE, SENT_METRIC, SERVICE_NAME, type MetricName, type SentChannel } from '../ports/metric-names';

/**
 * Custom CloudWatch metrics, all in one namespace, written as Embedded Metric Format log lines
 * (CloudWatch Logs turns a line with an `_aws` key into a metric; no SDK call, no extra
 * permission). The operators' dashboard shows them (cdk/lib/constructs/operator-dashboard.ts); the
 * alarms are in cdk/lib/constructs/operator-alarms.ts.
 */
export {   DELIVERY_DEAD_LETTERS, METRIC,   SERVICE_NAME } from '../ports/metric-names';;

/**
 * The fields that make a JSON log line an EMF record adding `count` to a metric of the VatMan
 * namespace (no dimensions): spread into a logger call's extra fields, so the alarm watches what
 * the log already says.
 */
export const metricFields = (name: string, count: number, at: Date = new Date()): Record<string, unknown> => ({
  _aws: { Timestamp: at.getTime(), CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [[]], Metrics: [{ Name: name, Unit: 'Count' }] }] },
  [name]: count,
});

const truthy = (v: string) => ['1', 'true', 'yes', 'on'].includes(v.trim().toLowerCase());

/**
 * Whether stored metrics are written: POWERTOOLS_METRICS_DISABLED when set, else only inside
 * Lambda (AWS_LAMBDA_FUNCTION_NAME). The local stack and the tests run the same code, count the
 * same metrics, and print no EMF blobs.
 */
export const metricsPublish = (env: NodeJS.ProcessEnv = process.env): boolean => {
  const disabled = env.POWERTOOLS_METRICS_DISABLED;
  if (disabled !== undefined && disabled !== '') return !truthy(disabled);
  return Boolean(env.AWS_LAMBDA_FUNCTION_NAME);
};

class VatManMetrics extends Metrics {
  override publishStoredMetrics(): this {
    // Nothing counted (most API calls): no line, and no Powertools warning about it on every invocation.
    if (!this.hasStoredMetrics()) return this;
    if (metricsPublish()) return super.publishStoredMetrics();
    this.clearMetrics();
    return this;
  }
}

/**
 * One instance per process (Powertools' pattern): what a function counts during an invocation is
 * flushed at its end (`logMetrics` on the API's middy stack, `observe` for the other handlers), and
 * once 100 are stored.
 */
export const metrics = new VatManMetrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME });

export const countMetric = (name: MetricName, count = 1): void => {
  if (count > 0) metrics.addMetric(name, MetricUnit.Count, count);
};

/** One alert message sent on `channel`: each channel (text, email, web push) calls this once per message that left. */
export const countSent = (channel: SentChannel): void => countMetric(SENT_METRIC[channel]);

/** The alert latency: from the reading that raised it to this send. */
export const recordAlertLatency = (readingAt: string, sentAt: Date): void => {
  const ms = sentAt.getTime() - Date.parse(readingAt);
  if (Number.isFinite(ms) && ms >= 0) metrics.addMetric(METRIC.alertLatency, MetricUnit.Milliseconds, ms);
};
