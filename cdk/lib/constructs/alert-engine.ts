import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { UserPoolOperation, type UserPool } from 'aws-cdk-lib/aws-cognito';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnTopicRule } from 'aws-cdk-lib/aws-iot';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import * as path from 'node:path';
import { Construct } from 'constructs';
import { DEVICE_REPLY_PORTS, ALERT_SWEEP_PORTS, POST_CONFIRMATION_PORTS } from '../../../lambdas/ports/function-ports';
import { acknowledge } from '../nag';
import { REPO_ROOT, triggerEntry } from '../paths';
import { grantPorts, type PushGrantConfig } from '../port-grants';
import type { Alerts } from './alerts';
import type { Data } from './data';
import { VatManFunction } from './vat-man-function';

/** The device-reply rule (lambdas/adapters/iot/device-commands.ts): a device's answer to a command. */
export const DEVICE_REPLY_RULE_SQL = "SELECT *, topic(2) AS thing FROM 'dts/+/cmd/reply'";
/** How often the alert sweep runs (OFFLINE is due 15 minutes after the last reading). */
const ALERT_SWEEP_RATE = Duration.minutes(1);

interface AlertEngineProps {
  readonly data: Data;
  readonly alerts: Alerts;
  /** Its post-confirmation trigger gives each new user their alert-email topic and subscription. */
  readonly userPool: UserPool;
  /** The functions that send controller settings to devices (/api/farmer/setting; they already bind every table). */
  readonly commandSenders: readonly VatManFunction[];
  /**
   * The account's IoT data endpoint (`aws iot describe-endpoint --endpoint-type iot:Data-ATS`),
   * where settings commands are published.
   * @default the SDK's default endpoint for the region
   */
  readonly iotDataEndpoint?: string;
  /** Web Push's VAPID configuration (the sweep sends pushes). */
  readonly push: PushGrantConfig;
  readonly removalPolicy: RemovalPolicy;
  readonly logRetention: RetentionDays;
}

/**
 * The alert engine's infrastructure: the scheduled sweep (EventBridge, every minute) for
 * time-based alerts and pending deliveries, the post-confirmation trigger, and the device-reply
 * rule and function for controller settings. The ingest, which runs the engine on each reading,
 * gets its ports' grants from the stack.
 */
export class AlertEngine extends Construct {
  readonly sweep: VatManFunction;
  readonly deviceReply: VatManFunction;
  readonly schedule: Rule;
  readonly postConfirmation: VatManFunction;

  constructor(scope: Construct, id: string, props: AlertEngineProps) {
    super(scope, id);
    const stack = Stack.of(this);
    // Each function gets what its ports need (cdk/lib/port-grants.ts), from the constant beside its handler.
    const grants = { data: props.data, userPoolArn: props.userPool.userPoolArn, alertTopics: props.alerts, push: props.push };

    this.sweep = new VatManFunction(this, 'Sweep', {
      entry: path.join(REPO_ROOT, 'lambdas', 'alerts', 'sweep-handler.ts'),
      description: 'Vat-Man alert sweep: offline, power cut, collection and pick-up alerts; pending deliveries',
      // One pass over every device plus retries of pending sends; well inside the one-minute rate.
      timeout: Duration.seconds(50),
      // Two sweeps never run at once (a slow run and the next minute's, or an invocation retry):
      // the delivery queue's leases would keep them apart anyway, but the device pass need not run twice.
      reservedConcurrentExecutions: 1,
      removalPolicy: props.removalPolicy,
      logRetention: props.logRetention,
    });
    grantPorts(this.sweep, ALERT_SWEEP_PORTS, grants);
    this.schedule = new Rule(this, 'SweepSchedule', {
      description: 'Runs the Vat-Man alert sweep every minute',
      schedule: Schedule.rate(ALERT_SWEEP_RATE),
      targets: [new LambdaFunction(this.sweep.function, { retryAttempts: 0 })],
    });

    // A confirmed account gets its alert-email route at once, so AWS's subscription-confirmation
    // email comes with the sign-up rather than with the first alert.
    this.postConfirmation = new VatManFunction(this, 'PostConfirmationTrigger', {
      entry: triggerEntry('post-confirmation'),
      description: 'Vat-Man Cognito PostConfirmation: alert-email topic and subscription of a new user',
      removalPolicy: props.removalPolicy,
      logRetention: props.logRetention,
    });
    grantPorts(this.postConfirmation, POST_CONFIRMATION_PORTS, grants);
    props.userPool.addTrigger(UserPoolOperation.POST_CONFIRMATION, this.postConfirmation.function);

    this.deviceReply = new VatManFunction(this, 'DeviceReply', {
      entry: path.join(REPO_ROOT, 'lambdas', 'alerts', 'device-reply-handler.ts'),
      description: 'Vat-Man device replies to commands (IoT rule dts/+/cmd/reply)',
      removalPolicy: props.removalPolicy,
      logRetention: props.logRetention,
    });
    grantPorts(this.deviceReply, DEVICE_REPLY_PORTS, grants);
    const rule = new CfnTopicRule(this, 'DeviceReplyRule', {
      topicRulePayload: {
        sql: DEVICE_REPLY_RULE_SQL,
        awsIotSqlVersion: '2016-03-23',
        ruleDisabled: false,
        actions: [{ lambda: { functionArn: this.deviceReply.function.functionArn } }],
      },
    });
    this.deviceReply.function.addPermission('InvokedByDeviceReplyRule', {
      principal: new ServicePrincipal('iot.amazonaws.com'),
      sourceArn: rule.attrArn,
      sourceAccount: stack.account,
    });

    // Settings go out on dts/<thing>/cmd/settings only.
    // A pseudo parameter as cdk-nag prints it: literal when the stack knows it, else <AWS::Name>.
    const nagValue = (value: string): string => {
      const resolved: unknown = stack.resolve(value);
      if (typeof resolved === 'string') return resolved;
      return `<${String((resolved as { Ref?: unknown }).Ref)}>`;
    };
    for (const fn of props.commandSenders) {
      fn.role.addToPrincipalPolicy(
        new PolicyStatement({
          sid: 'PublishDeviceSettingsCommands',
          actions: ['iot:Publish'],
          resources: [stack.formatArn({ service: 'iot', resource: 'topic', resourceName: 'dts/*/cmd/settings' })],
        }),
      );
      acknowledge(
        fn.role,
        `IAM5[Resource::arn:${nagValue(stack.partition)}:iot:${nagValue(stack.region)}:${nagValue(stack.account)}:topic/dts/*/cmd/settings]`,
        'The farmer picks the vat at run time: the wildcard is the thing name only, and the topic is confined to settings commands (the device policy lets each device read only its own).',
      );
      if (props.iotDataEndpoint) fn.addEnvironment('IOT_DATA_ENDPOINT', props.iotDataEndpoint);
    }
  }
}
