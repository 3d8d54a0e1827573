import { Duration } from 'aws-cdk-lib';
import { AlarmStatusWidget, AlarmWidget, Dashboard, GraphWidget, Metric, SingleValueWidget, TextWidget, type IWidget } from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { METRIC, METRICS_NAMESPACE, SERVICE_NAME, type MetricName } from '../../../lambdas/ports/metric-names';
import type { OperatorAlarms } from './operator-alarms';

interface OperatorDashboardProps {
  /** The alarms shown beside the metrics: their states in one row, each alarm's graph with its threshold. */
  readonly alarms: OperatorAlarms;
}

/** A metric the functions write through Powertools (lambdas/lib/metrics.ts): the VatMan namespace, dimension `service`. */
const powertoolsMetric = (metricName: MetricName, statistic: string, label: string, period = Duration.minutes(5)) =>
  new Metric({ namespace: METRICS_NAMESPACE, metricName, dimensionsMap: { service: SERVICE_NAME }, statistic, period, label });

/** What the dashboard draws, in order: each Powertools metric by name (test/infra/observability.test.ts checks every one is on it). */
export const DASHBOARD_METRICS: readonly MetricName[] = Object.values(METRIC);

/**
 * The operators' CloudWatch dashboard: ingest rate and rejections, alert latency from the reading
 * to the text or email, texts, emails and pushes sent (SMS use), Watchman cases opened, and the
 * operator alarms (cdk/lib/constructs/operator-alarms.ts) with their states.
 */
export class OperatorDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OperatorDashboardProps) {
    super(scope, id);
    const alarms = Object.values(props.alarms.alarms);
    const sum = (name: MetricName, label: string) => powertoolsMetric(name, 'Sum', label);
    const rows: IWidget[][] = [
      [
        new TextWidget({
          markdown:
            '## Vat-Man operations\nDevice messages, alert delivery and Watchman, from the functions\' Powertools metrics (namespace `VatMan`, dimension `service`), and the operator alarms. Logs: CloudWatch Logs Insights on the `/aws/lambda/VatMan*` log groups (`function_request_id`, `cold_start`, `level = "ERROR"`).',
          width: 24,
          height: 2,
        }),
      ],
      [new AlarmStatusWidget({ title: 'Operator alarms', alarms, width: 24, height: 3 })],
      [
        new GraphWidget({ title: 'Device messages ingested and rejected (per 5 min)', left: [sum(METRIC.messagesIngested, 'ingested'), sum(METRIC.readingsRejected, 'rejected')], width: 12 }),
        new GraphWidget({
          title: 'Alert latency, reading to send (ms)',
          left: [powertoolsMetric(METRIC.alertLatency, 'p50', 'p50'), powertoolsMetric(METRIC.alertLatency, 'p95', 'p95'), powertoolsMetric(METRIC.alertLatency, 'Maximum', 'max')],
          width: 12,
        }),
      ],
      [
        new GraphWidget({
          title: 'Alerts sent (per 5 min)',
          left: [sum(METRIC.textsSent, 'texts'), sum(METRIC.emailsSent, 'emails'), sum(METRIC.pushesSent, 'pushes')],
          width: 12,
        }),
        new SingleValueWidget({
          title: 'Texts sent, last 24 hours (SMS use)',
          metrics: [powertoolsMetric(METRIC.textsSent, 'Sum', 'texts', Duration.days(1))],
          width: 6,
        }),
        new GraphWidget({ title: 'Watchman cases opened (per hour)', left: [powertoolsMetric(METRIC.watchmanCasesOpened, 'Sum', 'cases', Duration.hours(1))], width: 6 }),
      ],
      // Two alarms a row, each with its threshold line.
      ...Array.from({ length: Math.ceil(alarms.length / 2) }, (_, i) => alarms.slice(i * 2, i * 2 + 2).map((alarm) => new AlarmWidget({ title: alarm.node.id, alarm, width: 12 }))),
    ];
    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(24) });
    for (const row of rows) this.dashboard.addWidgets(...row);
  }
}
