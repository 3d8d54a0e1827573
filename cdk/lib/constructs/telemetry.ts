import { Duration, Stack, type RemovalPolicy } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnPolicy, CfnTopicRule } from 'aws-cdk-lib/aws-iot';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DEVICE_TOPIC_FILTER } from '../../../shared/telemetry/device-message';
import { acknowledge } from '../nag';
import { functionEntry } from '../paths';
import type { Data } from './data';
import { VatManFunction } from './vat-man-function';

export interface TelemetryProps {
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

/** IoT invokes the Lambda asynchronously; Lambda retries a failed event this many times. */
export const INGEST_RETRY_ATTEMPTS = 2;

/**
 * Device telemetry: an IoT topic rule on dts/+/+ invoking the ingest Lambda, a dead-letter
 * queue that keeps every message that could not be processed (the rule's error action when IoT
 * cannot invoke the Lambda, and the Lambda's on-failure destination when the ingest failed after
 * its retries), and the IoT policy that limits each device to its own thing name's topics.
 */
export class Telemetry extends Construct {
  readonly ingest: VatManFunction;
  readonly deadLetters: Queue;
  readonly rule: CfnTopicRule;
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
      'This queue is itself the dead-letter queue of the ingest (IoT rule error action and Lambda on-failure destination); a DLQ of a DLQ would only move the same messages again.',
    );

    this.ingest = new VatManFunction(this, 'Ingest', {
      entry: functionEntry('ingest'),
      description: 'Vat-Man telemetry ingest (IoT rule dts/+/+)',
      // A late message replays up to a day of readings; 30 s leaves room for that and for retries.
      timeout: Duration.seconds(30),
      removalPolicy: props.removalPolicy,
      logRetention: props.logRetention,
    });
    this.ingest.bindTable(props.data.table('Farms'), 'readWrite');
    this.ingest.bindTable(props.data.table('Readings'), 'readWrite');
    // IoT invokes asynchronously: a failed reading is retried, then kept in the queue, never lost.
    this.ingest.function.configureAsyncInvoke({
      retryAttempts: INGEST_RETRY_ATTEMPTS,
      maxEventAge: Duration.hours(6),
      onFailure: new SqsDestination(this.deadLetters),
    });

    const errorActionRole = new Role(this, 'RuleErrorActionRole', {
      assumedBy: new ServicePrincipal('iot.amazonaws.com'),
      description: 'Lets the Vat-Man ingest rule put messages it could not deliver into the dead-letter queue',
    });
    this.deadLetters.grantSendMessages(errorActionRole);

    this.rule = new CfnTopicRule(this, 'IngestRule', {
      topicRulePayload: {
        description: 'Every vat and knode device message to the Vat-Man ingest',
        sql: INGEST_RULE_SQL,
        awsIotSqlVersion: '2016-03-23',
        ruleDisabled: false,
        actions: [{ lambda: { functionArn: this.ingest.function.functionArn } }],
        errorAction: { sqs: { queueUrl: this.deadLetters.queueUrl, roleArn: errorActionRole.roleArn, useBase64: false } },
      },
    });
    this.ingest.function.addPermission('InvokedByIngestRule', {
      principal: new ServicePrincipal('iot.amazonaws.com'),
      sourceArn: this.rule.attrArn,
      sourceAccount: stack.account,
    });

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
          // Readings, knode assets, and answers to commands (lambdas/adapters/iot/device-commands.ts).
          {
            Effect: 'Allow',
            Action: 'iot:Publish',
            Resource: [arn('topic', `dts/${thing}/telemetry`), arn('topic', `dts/${thing}/knode`), arn('topic', `dts/${thing}/cmd/reply`)],
          },
          // Commands to the device (controller settings) arrive on its own topics only.
          { Effect: 'Allow', Action: 'iot:Subscribe', Resource: arn('topicfilter', `dts/${thing}/cmd/*`) },
          { Effect: 'Allow', Action: 'iot:Receive', Resource: arn('topic', `dts/${thing}/cmd/*`) },
        ],
      },
    });
  }
}
