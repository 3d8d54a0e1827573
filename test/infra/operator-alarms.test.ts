import { Match, type Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SMS_SPEND_ALARM_USD, INGEST_ITERATOR_AGE_ALARM_MS } from '../../cdk/lib/constructs/operator-alarms';
import { DAIRY_EVENTS_REFUSED, DAIRY_TOKEN_REFUSED, DELIVERY_DEAD_LETTERS, METRICS_NAMESPACE } from '../../lambdas/ports/metric-names';
import { lambdaFunctions, onlyResourceId, synthVatMan, type Synthesized } from './synth';

let synth: Synthesized;
let template: Template;
let topicId: string;
let ingestId: string;
let queueId: string;

beforeAll(() => {
  synth = synthVatMan({ stage: 'prod' });
  template = synth.template;
  const topics = Object.entries(template.findResources('AWS::SNS::Topic', { Properties: { DisplayName: 'Vat-Man operator alarms' } }));
  expect(topics).toHaveLength(1);
  topicId = (topics[0] as [string, unknown])[0];
  const ingest = Object.entries(lambdaFunctions(template)).filter(([, fn]) => String(fn.Properties?.Description).includes('telemetry ingest'));
  ingestId = (ingest[0] as [string, unknown])[0];
  queueId = onlyResourceId(template, 'AWS::SQS::Queue');
});
afterAll(() => synth.cleanup());

/** The alarm on this metric (namespace, name, dimensions), alarming and clearing on the operators' topic. */
const alarmOn = (namespace: string, metricName: string, extra: Record<string, unknown>) =>
  template.hasResourceProperties('AWS::CloudWatch::Alarm', {
    Namespace: namespace,
    MetricName: metricName,
    ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    TreatMissingData: 'notBreaching',
    AlarmActions: [{ Ref: topicId }],
    OKActions: [{ Ref: topicId }],
    ...extra,
  });

describe('operator alarms', () => {
  it('are seven, each on the one operator topic', () => {
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms).toHaveLength(7);
    for (const a of alarms) expect((a.Properties as { AlarmActions: unknown }).AlarmActions).toEqual([{ Ref: topicId }]);
  });

  it('ingest iterator age: the ingest 5 minutes behind its stream for 5 minutes', () => {
    alarmOn('AWS/Lambda', 'IteratorAge', { Statistic: 'Maximum', Period: 60, EvaluationPeriods: 5, Threshold: INGEST_ITERATOR_AGE_ALARM_MS, Dimensions: [{ Name: 'FunctionName', Value: { Ref: ingestId } }] });
  });

  it('ingest errors: any failed invocation in 5 minutes', () => {
    alarmOn('AWS/Lambda', 'Errors', { Statistic: 'Sum', Period: 300, Threshold: 1, Dimensions: [{ Name: 'FunctionName', Value: { Ref: ingestId } }] });
  });

  it('ingest dead-letter queue depth: any message in it', () => {
    alarmOn('AWS/SQS', 'ApproximateNumberOfMessagesVisible', { Threshold: 1, Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }] });
  });

  it('delivery dead letters: the VatMan/DeliveryDeadLetters metric the delivery queue writes (EMF)', () => {
    expect([METRICS_NAMESPACE, DELIVERY_DEAD_LETTERS]).toEqual(['VatMan', 'DeliveryDeadLetters']);
    alarmOn('VatMan', 'DeliveryDeadLetters', { Statistic: 'Sum', Period: 300, Threshold: 1 });
  });

  it('dairy events refused: any event the gateway refused (the VatMan/DairyEventsRefused metric the exporter writes, EMF)', () => {
    expect(DAIRY_EVENTS_REFUSED).toBe('DairyEventsRefused');
    alarmOn('VatMan', 'DairyEventsRefused', { Statistic: 'Sum', Period: 300, Threshold: 1 });
  });

  it('dairy token refused: the gateway refusing the token twice in 15 minutes (a rotation not yet in SSM)', () => {
    expect(DAIRY_TOKEN_REFUSED).toBe('DairyTokenRefused');
    alarmOn('VatMan', 'DairyTokenRefused', { Statistic: 'Sum', Period: 900, Threshold: 2 });
  });

  it('SMS spend: the month-to-date spend of SNS SMS', () => {
    alarmOn('AWS/SNS', 'SMSMonthToDateSpentUSD', { Statistic: 'Maximum', Period: 3600, Threshold: DEFAULT_SMS_SPEND_ALARM_USD });
  });

  it('the topic refuses publishing without TLS', () => {
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      Topics: [{ Ref: topicId }],
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });
});
