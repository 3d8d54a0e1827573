import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Metric, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { DAIRY_EVENTS_REFUSED, DAIRY_TOKEN_REFUSED, DELIVERY_DEAD_LETTERS, METRICS_NAMESPACE } from '../../../lambdas/ports/metric-names';
import { SMS_SPEND_ALARM_USD } from '../../../shared/api/actions/operator-fleet';
import type { Telemetry } from './telemetry';

interface OperatorAlarmsProps {
  readonly telemetry: Telemetry;
  /** Month-to-date SMS spend (USD) that raises the alarm. @default 50 */
  readonly smsSpendUsd?: number;
  /** An operator address subscribed to the topic (it confirms once). */
  readonly email?: string;
}

/** How far behind the stream the ingest may fall before an operator hears of it (readings are then that late on the dashboard). */
export const INGEST_ITERATOR_AGE_ALARM_MS = 5 * 60_000;
export const DEFAULT_SMS_SPEND_ALARM_USD = SMS_SPEND_ALARM_USD;

/**
 * What an operator must hear about, on one SNS topic: the ingest falling behind its stream
 * (iterator age), the ingest failing (errors), anything in the ingest's dead-letter queue (a batch
 * given up after its retries, or a message IoT could not put on the stream: re-drive with
 * `npm run replay-dlq -- --aws`), alert deliveries that ended dead-lettered (the EMF metric
 * VatMan/DeliveryDeadLetters, lambdas/lib/metrics.ts), the month's SMS spend, and the dairy
 * company's gateway refusing events (VatMan/DairyEventsRefused: an Admin sends them again from the
 * farm's dairy log, or `npm run dairy-resend`) or the token (VatMan/DairyTokenRefused for 15
 * minutes: put the company's new token in the SSM parameter; the sync reads it again itself).
 */
export class OperatorAlarms extends Construct {
  readonly topic: Topic;
  readonly alarms: Record<'ingestIteratorAge' | 'ingestErrors' | 'ingestDeadLetters' | 'deliveryDeadLetters' | 'smsSpend' | 'dairyEventsRefused' | 'dairyTokenRefused', Alarm>;

  constructor(scope: Construct, id: string, props: OperatorAlarmsProps) {
    super(scope, id);
    this.topic = new Topic(this, 'Topic', { displayName: 'Vat-Man operator alarms', enforceSSL: true });
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));
    const fn = props.telemetry.ingest.function;
    const alarm = (name: string, description: string, metric: IMetric, threshold: number, evaluationPeriods = 1) => {
      const a = new Alarm(this, name, {
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      a.addAlarmAction(new SnsAction(this.topic));
      a.addOkAction(new SnsAction(this.topic));
      return a;
    };
    this.alarms = {
      ingestIteratorAge: alarm(
        'IngestIteratorAge',
        'The ingest is more than 5 minutes behind its stream: readings reach the dashboard and the alert engine late.',
        fn.metric('IteratorAge', { statistic: 'Maximum', period: Duration.minutes(1) }),
        INGEST_ITERATOR_AGE_ALARM_MS,
        5,
      ),
      ingestErrors: alarm('IngestErrors', 'Ingest invocations failed (their records are retried, then dead-lettered).', fn.metricErrors({ period: Duration.minutes(5) }), 1),
      ingestDeadLetters: alarm(
        'IngestDeadLetters',
        'Device messages are in the ingest dead-letter queue: re-drive them with npm run replay-dlq -- --aws within the stream\'s 7 days.',
        props.telemetry.deadLetters.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
        1,
      ),
      deliveryDeadLetters: alarm(
        'DeliveryDeadLetters',
        'Alert deliveries ended dead-lettered (retries and the other channel failed): the operator area lists them.',
        new Metric({ namespace: METRICS_NAMESPACE, metricName: DELIVERY_DEAD_LETTERS, statistic: 'Sum', period: Duration.minutes(5) }),
        1,
      ),
      smsSpend: alarm(
        'SmsSpend',
        `The month's SMS spend reached ${props.smsSpendUsd ?? DEFAULT_SMS_SPEND_ALARM_USD} USD.`,
        new Metric({ namespace: 'AWS/SNS', metricName: 'SMSMonthToDateSpentUSD', statistic: 'Maximum', period: Duration.hours(1) }),
        props.smsSpendUsd ?? DEFAULT_SMS_SPEND_ALARM_USD,
      ),
      dairyEventsRefused: alarm(
        'DairyEventsRefused',
        "The dairy company's gateway refused events (its answer is in the farm's dairy log): fix the cause, then send them again (DAIRY_EVENT_RESEND on the log page, or npm run dairy-resend).",
        new Metric({ namespace: METRICS_NAMESPACE, metricName: DAIRY_EVENTS_REFUSED, statistic: 'Sum', period: Duration.minutes(5) }),
        1,
      ),
      // One refusal is a rotation the sync has already recovered from (it reads the token again and
      // tries again); tries are at most 5 minutes apart, so two in 15 minutes means it has not.
      dairyTokenRefused: alarm(
        'DairyTokenRefused',
        "The dairy company's gateway keeps refusing the token: events wait (none is lost). Put the company's current token in the SSM parameter; the sync reads it again on its next try.",
        new Metric({ namespace: METRICS_NAMESPACE, metricName: DAIRY_TOKEN_REFUSED, statistic: 'Sum', period: Duration.minutes(15) }),
        2,
      ),
    };
  }
}
