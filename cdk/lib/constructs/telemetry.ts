import { Duration, Stack, type RemovalPolicy } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnPolicy, CfnTopicRule } from 'aws-cdk-lib/aws-iot';
import { Stream, StreamEncryption, StreamMode } from 'aws-cdk-lib/aws-kinesis';
import { StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { KinesisEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { INGEST_FUNCTION, INGEST_STREAM } from '../../../lambdas/ports/function-settings';
import { DEVICE_TOPIC_FILTER, devicePublishTopics, UNIT_TELEMETRY_TOPIC_FILTER } from '../../../shared/telemetry/device-message';
import { acknowledge } from '../nag';
import { functionEntry } from '../paths';
import type { Data } from './data';
import { VatManFunction } from './vat-man-function';

interface TelemetryProps {
  readonly data: Data;
  /** @default RemovalPolicy.RETAIN (log groups) */
  readonly removalPolicy?: RemovalPolicy;
  readonly logRetention?: RetentionDays;
}

/**
 * The topic rule's SQL. The payload travels base64-encoded: a message that is not JSON still
 * reaches the ingest (and its rejected store, with a reason) instead of failing inside the rule.
 * The local stack's rule runner builds the same event (local/start.ts).
 */
export const INGEST_RULE_SQL = `SELECT encode(*, 'base64') AS payload, topic() AS topic, timestamp() AS received_at FROM '${DEVICE_TOPIC_FILTER}'`;
/** The same for a unit's vats: dts/<unit>/<vat>/telemetry, one level deeper than dts/+/+. */
export const UNIT_INGEST_RULE_SQL = `SELECT encode(*, 'base64') AS payload, topic() AS topic, timestamp() AS received_at FROM '${UNIT_TELEMETRY_TOPIC_FILTER}'`;

/** The rule's partition key: the thing name (topic level 2), so one device's messages stay in order on one shard. */
export const INGEST_PARTITION_KEY = '${topic(2)}';

/**
 * Device telemetry: an IoT topic rule on dts/+/+ putting every message on a Kinesis stream keyed
 * by thing name; the ingest Lambda consuming it in batches (one commit per device per batch, see
 * docs/architecture.md 'Throughput'); a dead-letter queue for what could not be processed (the
 * rule's error action holds the message itself when IoT cannot put it on the stream; the event
 * source's on-failure destination names the records of a batch that failed after its retries,
 * which the stream keeps for 7 days); and the IoT policy that limits each device to its own
 * thing name's topics.
 */
export class Telemetry extends Construct {
  readonly ingest: VatManFunction;
  readonly stream: Stream;
  readonly deadLetters: Queue;
  readonly rule: CfnTopicRule;
  readonly unitRule: CfnTopicRule;
  readonly devicePolicy: CfnPolicy;

  constructor(scope: Construct, id: string, props: TelemetryProps) {
    super(scope, id);
    const stack = Stack.of(this);

    this.deadLetters = new Queue(this, 'IngestDeadLetters', {
      // The longest SQS allows: time to fix the ingest and replay the readings.
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    acknowledge(
      this.deadLetters,
      'SQS3',
      'This queue is itself the dead-letter queue of the ingest (IoT rule error action and the stream event source\'s on-failure destination); a DLQ of a DLQ would only move the same messages again.',
    );

    // On-demand: shards follow the fleet's rate. Seven days' retention lets a failed batch (named
    // in the dead-letter queue by shard and sequence numbers) be read again and replayed.
    this.stream = new Stream(this, 'IngestStream', {
      streamMode: StreamMode.ON_DEMAND,
      retentionPeriod: Duration.days(7),
      encryption: StreamEncryption.MANAGED,
    });
    acknowledge(this.stream, 'KDS3', 'Device readings are not secret enough to warrant a customer-managed key; the AWS-managed aws/kinesis key encrypts them at rest.');

    this.ingest = new VatManFunction(this, 'Ingest', {
      entry: functionEntry('ingest'),
      description: 'Vat-Man telemetry ingest (IoT rule dts/+/+ via the ingest stream)',
      // A batch with a late message replays up to a day of readings; 60 s leaves room for that.
      timeout: Duration.seconds(60),
      memorySize: INGEST_FUNCTION.memoryMb,
      nodeOptions: [`--max-semi-space-size=${INGEST_FUNCTION.semiSpaceMb}`],
      tracing: true,
      removalPolicy: props.removalPolicy,
      logRetention: props.logRetention,
    });
    // Its grants and tables come from its ports (lambdas/ingest/handler.ts INGEST_PORTS), given by
    // the stack once the alert topics and the live-updates API exist (cdk/lib/vat-man-stack.ts).
    // Batches per shard, one device's records in order; a failed record is retried from where it
    // failed (the ones after it answer 'duplicate'), halved on error to isolate it, and after the
    // retries the batch is named in the dead-letter queue: a reading is never silently lost.
    this.ingest.function.addEventSource(
      new KinesisEventSource(this.stream, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: INGEST_STREAM.batchSize,
        maxBatchingWindow: Duration.seconds(0),
        reportBatchItemFailures: true,
        bisectBatchOnError: true,
        retryAttempts: INGEST_STREAM.retryAttempts,
        maxRecordAge: Duration.days(1),
        onFailure: new SqsDlq(this.deadLetters),
      }),
    );

    const ruleRole = new Role(this, 'RuleActionRole', {
      assumedBy: new ServicePrincipal('iot.amazonaws.com'),
      description: 'Lets the Vat-Man ingest rule put device messages on the ingest stream, and into the dead-letter queue when it cannot',
    });
    this.stream.grantWrite(ruleRole);
    this.deadLetters.grantSendMessages(ruleRole);

    // Both rules put the message on the ingest stream, keyed by topic level 2, with the same error action.
    const ingestRule = (id: string, description: string, sql: string) =>
      new CfnTopicRule(this, id, {
        topicRulePayload: {
          description,
          sql,
          awsIotSqlVersion: '2016-03-23',
          ruleDisabled: false,
          actions: [{ kinesis: { streamName: this.stream.streamName, partitionKey: INGEST_PARTITION_KEY, roleArn: ruleRole.roleArn } }],
          errorAction: { sqs: { queueUrl: this.deadLetters.queueUrl, roleArn: ruleRole.roleArn, useBase64: false } },
        },
      });
    this.rule = ingestRule('IngestRule', 'Every vat and knode device message to the Vat-Man ingest stream', INGEST_RULE_SQL);
    // A unit's vats: keyed by the unit, so all its vats stay in order on one shard.
    this.unitRule = ingestRule('UnitIngestRule', "Every unit's vat readings (dts/<unit>/<vat>/telemetry) to the Vat-Man ingest stream", UNIT_INGEST_RULE_SQL);

    // Each device certificate gets this policy, attached to its thing: the policy variable
    // confines a device to the client id and topics of its own thing name.
    const arn = (resource: string, name: string) => stack.formatArn({ service: 'iot', resource, resourceName: name });
    const thing = '${iot:Connection.Thing.ThingName}';
    this.devicePolicy = new CfnPolicy(this, 'DevicePolicy', {
      policyDocument: {
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Action: 'iot:Connect',
            Resource: arn('client', thing),
            Condition: { Bool: { 'iot:Connection.Thing.IsAttached': 'true' } },
          },
          // Readings (a unit's vats 1-4, and the deprecated per-vat topic), knode assets, and answers
          // to commands (lambdas/adapters/iot/device-commands.ts): devicePublishTopics.
          { Effect: 'Allow', Action: 'iot:Publish', Resource: devicePublishTopics(thing).map((t) => arn('topic', t)) },
          // Commands to the device (controller settings) arrive on its own topics only.
          { Effect: 'Allow', Action: 'iot:Subscribe', Resource: arn('topicfilter', `dts/${thing}/cmd/*`) },
          { Effect: 'Allow', Action: 'iot:Receive', Resource: arn('topic', `dts/${thing}/cmd/*`) },
        ],
      },
    });
  }
}
