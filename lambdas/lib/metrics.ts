import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/**
 * Custom CloudWatch metrics, all in one namespace, written as Embedded Metric Format log lines
 * (CloudWatch Logs turns a line with an `_aws` key into a metric; no SDK call, no extra
 * permission). The operators' dashboard shows them (cdk/lib/constructs/operator-dashboard.ts); the
 * alarms are in cdk/lib/constructs/operator-alarms.ts.
 */
export const METRICS_NAMESPACE = 'VatMan';
/** Every function's POWERTOOLS_SERVICE_NAME: the one `service` dimension of the Powertools metrics below. */
export const SERVICE_NAME = 'vat-man';

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

/** The Powertools metrics (dimension `service`), by name; the dashboard draws each. */
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
  /** Alert web pushes sent. */
  pushesSent: 'PushesSent',
  /** Watchman cases opened by a run. */
  watchmanCasesOpened: 'WatchmanCasesOpened',
} as const;
export type MetricName = (typeof METRIC)[keyof typeof METRIC];

/** The channels an alert goes out on, and the metric counting each. */
export const SENT_METRIC = { sms: METRIC.textsSent, email: METRIC.emailsSent, push: METRIC.pushesSent } as const satisfies Record<string, MetricName>;
export type SentChannel = keyof typeof SENT_METRIC;

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

/** One alert message sent on `channel`: any channel (text, email, a web push) calls this once per message that left. */
export const countSent = (channel: SentChannel): void => countMetric(SENT_METRIC[channel]);

/** The alert latency: from the reading that raised it to this send. */
export const recordAlertLatency = (readingAt: string, sentAt: Date): void => {
  const ms = sentAt.getTime() - Date.parse(readingAt);
  if (Number.isFinite(ms) && ms >= 0) metrics.addMetric(METRIC.alertLatency, MetricUnit.Milliseconds, ms);
};
