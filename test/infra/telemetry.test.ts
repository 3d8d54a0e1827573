import { Match, type Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INGEST_PARTITION_KEY, INGEST_RULE_SQL, UNIT_INGEST_RULE_SQL } from '../../cdk/lib/constructs/telemetry';
import { INGEST_FUNCTION, INGEST_STREAM } from '../../lambdas/ports/function-settings';
import { functionEnv, lambdaFunctions, nagViolations, onlyResourceId, synthVatMan, type Synthesized } from './synth';

let synth: Synthesized;
let template: Template;
let ingestId: string;
let queueId: string;
let ruleId: string;
let streamId: string;

beforeAll(() => {
  synth = synthVatMan({ stage: 'prod' });
  template = synth.template;
  const ingest = Object.entries(lambdaFunctions(template)).filter(([, fn]) => String(fn.Properties?.Description).includes('telemetry ingest'));
  expect(ingest).toHaveLength(1);
  ingestId = (ingest[0] as [string, unknown])[0];
  queueId = onlyResourceId(template, 'AWS::SQS::Queue');
  streamId = onlyResourceId(template, 'AWS::Kinesis::Stream');
  // The ingest's rule (the alert engine adds a device-reply rule beside it).
  const rules = Object.entries(template.findResources('AWS::IoT::TopicRule', { Properties: { TopicRulePayload: { Sql: INGEST_RULE_SQL } } }));
  expect(rules).toHaveLength(1);
  ruleId = (rules[0] as [string, unknown])[0];
});
afterAll(() => synth.cleanup());

const json = (value: unknown) => JSON.stringify(value);

describe('IoT topic rule', () => {
  it('puts every dts/+/+ message, base64-encoded with its topic and arrival time, on the ingest stream keyed by thing name', () => {
    expect(INGEST_RULE_SQL).toBe("SELECT encode(*, 'base64') AS payload, topic() AS topic, timestamp() AS received_at FROM 'dts/+/+'");
    expect(INGEST_PARTITION_KEY).toBe('${topic(2)}');
    template.hasResourceProperties('AWS::IoT::TopicRule', {
      TopicRulePayload: {
        Sql: INGEST_RULE_SQL,
        AwsIotSqlVersion: '2016-03-23',
        RuleDisabled: false,
        Actions: [{ Kinesis: { StreamName: { Ref: streamId }, PartitionKey: '${topic(2)}', RoleArn: Match.anyValue() } }],
      },
    });
  });

  it("puts a unit's vat readings (dts/<unit>/<vat>/telemetry) on the same stream, keyed by the unit, with the same error action", () => {
    expect(UNIT_INGEST_RULE_SQL).toBe("SELECT encode(*, 'base64') AS payload, topic() AS topic, timestamp() AS received_at FROM 'dts/+/+/telemetry'");
    const rules = Object.values(template.findResources('AWS::IoT::TopicRule', { Properties: { TopicRulePayload: { Sql: UNIT_INGEST_RULE_SQL } } })) as { Properties: { TopicRulePayload: { Actions: unknown; ErrorAction: { Sqs: { QueueUrl: unknown } } } } }[];
    expect(rules).toHaveLength(1);
    expect(rules[0]?.Properties.TopicRulePayload.Actions).toEqual([{ Kinesis: { StreamName: { Ref: streamId }, PartitionKey: '${topic(2)}', RoleArn: expect.anything() } }]);
    expect(rules[0]?.Properties.TopicRulePayload.ErrorAction.Sqs.QueueUrl).toEqual({ Ref: queueId });
  });

  it('has an error action that puts undeliverable messages into the dead-letter queue', () => {
    const rule = template.findResources('AWS::IoT::TopicRule')[ruleId] as { Properties: { TopicRulePayload: { ErrorAction: { Sqs: { QueueUrl: unknown; RoleArn: { 'Fn::GetAtt': [string, string] } } } } } };
    const errorAction = rule.Properties.TopicRulePayload.ErrorAction.Sqs;
    expect(errorAction.QueueUrl).toEqual({ Ref: queueId });
    const roleId = errorAction.RoleArn['Fn::GetAtt'][0];
    template.hasResourceProperties('AWS::IAM::Role', { AssumeRolePolicyDocument: Match.objectLike({ Statement: [Match.objectLike({ Principal: { Service: 'iot.amazonaws.com' } })] }) });
    const policies = json(template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } }));
    expect(policies).toContain('sqs:SendMessage');
    expect(policies).toContain(queueId);
    // The same role puts records on the stream (the rule's action).
    expect(policies).toContain('kinesis:PutRecord');
    expect(policies).toContain(streamId);
  });

  it('has no other way into the ingest: no invoke permission for IoT', () => {
    expect(json(template.findResources('AWS::Lambda::Permission'))).not.toContain(ingestId);
  });
});

describe('ingest stream and Lambda', () => {
  it('keeps records 7 days, encrypted, shards on demand', () => {
    template.hasResourceProperties('AWS::Kinesis::Stream', {
      RetentionPeriodHours: 168,
      StreamModeDetails: { StreamMode: 'ON_DEMAND' },
      StreamEncryption: { EncryptionType: 'KMS', KeyId: 'alias/aws/kinesis' },
    });
  });

  it('consumes the stream in batches, retries from the failed record, then names the batch in the dead-letter queue so no reading is lost', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: ingestId },
      EventSourceArn: { 'Fn::GetAtt': [streamId, 'Arn'] },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: INGEST_STREAM.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: INGEST_STREAM.retryAttempts,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId, 'Arn'] } } },
    });
    template.hasResourceProperties('AWS::SQS::Queue', { MessageRetentionPeriod: 14 * 86_400, SqsManagedSseEnabled: true });
  });

  it('reads and writes the Farms and Readings tables (and Alerts, for the alert engine), named in its environment', () => {
    const env = functionEnv(template, ingestId);
    expect(Object.keys(env)).toEqual(expect.arrayContaining(['FARMS_TABLE', 'READINGS_TABLE', 'ALERTS_TABLE']));
    expect(lambdaFunctions(template)[ingestId]?.Properties).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'], Timeout: 60 });
  });

  it("runs with the young generation and memory the local containers get (INGEST_FUNCTION), source maps still on", () => {
    expect(functionEnv(template, ingestId).NODE_OPTIONS).toBe(`--enable-source-maps --max-semi-space-size=${INGEST_FUNCTION.semiSpaceMb}`);
    expect(lambdaFunctions(template)[ingestId]?.Properties).toMatchObject({ MemorySize: INGEST_FUNCTION.memoryMb });
  });
});

describe('device IoT policy', () => {
  const statements = () =>
    (Object.values(template.findResources('AWS::IoT::Policy'))[0] as { Properties: { PolicyDocument: { Statement: { Action: string; Resource: unknown; Condition?: unknown }[] } } }).Properties.PolicyDocument.Statement;

  it('confines each device to its own thing name: client id, telemetry and knode topics, its command topics', () => {
    template.resourceCountIs('AWS::IoT::Policy', 1);
    const byAction = Object.fromEntries(statements().map((s) => [s.Action, json(s.Resource)]));
    expect(Object.keys(byAction).sort()).toEqual(['iot:Connect', 'iot:Publish', 'iot:Receive', 'iot:Subscribe']);
    expect(byAction['iot:Connect']).toContain(':client/${iot:Connection.Thing.ThingName}');
    expect(byAction['iot:Publish']).toContain(':topic/dts/${iot:Connection.Thing.ThingName}/telemetry');
    // A unit publishes its vats' readings on its own topics, vats 1-4 and nothing else below it.
    for (const vat of [1, 2, 3, 4]) expect(byAction['iot:Publish']).toContain(`:topic/dts/\${iot:Connection.Thing.ThingName}/${vat}/telemetry`);
    expect(byAction['iot:Publish']).not.toContain('/5/telemetry');
    expect(byAction['iot:Publish']).toContain(':topic/dts/${iot:Connection.Thing.ThingName}/knode');
    expect(byAction['iot:Publish']).toContain(':topic/dts/${iot:Connection.Thing.ThingName}/cmd/reply');
    expect(byAction['iot:Subscribe']).toContain(':topicfilter/dts/${iot:Connection.Thing.ThingName}/cmd/*');
    expect(byAction['iot:Receive']).toContain(':topic/dts/${iot:Connection.Thing.ThingName}/cmd/*');
    // No statement reaches another thing's topics through a wildcard on the thing level.
    for (const s of statements()) expect(json(s.Resource)).not.toMatch(/dts\/(\*|\+|#)/);
    expect(statements().find((s) => s.Action === 'iot:Connect')?.Condition).toEqual({ Bool: { 'iot:Connection.Thing.IsAttached': 'true' } });
  });

  it('is named in the stack outputs, beside the dead-letter queue', () => {
    template.hasOutput('DevicePolicyName', { Value: { Ref: onlyResourceId(template, 'AWS::IoT::Policy') } });
    template.hasOutput('IngestDeadLetterQueueUrl', { Value: { Ref: queueId } });
  });

  it('leaves no unacknowledged cdk-nag finding', () => {
    expect(nagViolations(synth.assembly)).toEqual([]);
  });
});
