import { Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { acknowledge } from '../nag';
import type { VatManFunction } from './vat-man-function';

/** The variable carrying the users' alert-email topic ARN prefix (lambdas/adapters/sns/alert-sender.ts reads it). */
export const ALERT_EMAIL_TOPIC_ARN_PREFIX_ENV = 'ALERT_EMAIL_TOPIC_ARN_PREFIX';

/** A pseudo parameter as cdk-nag prints it: literal when the stack knows it, else <AWS::Name>. */
const nagValue = (stack: Stack, value: string): string => {
  const resolved: unknown = stack.resolve(value);
  if (typeof resolved === 'string') return resolved;
  return `<${String((resolved as { Ref?: unknown }).Ref)}>`;
};

/**
 * Alert delivery through SNS (docs/architecture.md 'Alerts'): a topic per user,
 * `<stack>-alert-email-<sub>`, holding an email subscription to the user's address and, while
 * their phone is verified, an SMS subscription to it, each filtered on the `channel` message
 * attribute. The topics are made at run time (the post-confirmation trigger at sign-up, or the
 * notifier at a user's first alert), so the stack holds no topic: it names the prefix and confines
 * every grant to it, publishing included (no `sns:Publish` on `*`, which texting a bare phone
 * number would need).
 */
export class Alerts extends Construct {
  /** The name every user's alert-email topic starts with. */
  readonly emailTopicPrefix: string;
  /** `arn:…:sns:<region>:<account>:<prefix>`: what a user's id completes into their topic's ARN. */
  readonly emailTopicArnPrefix: string;
  /** `arn:…:sns:<region>:<account>:<prefix>*`: the users' topics and their subscriptions. */
  readonly emailTopicsArn: string;
  private readonly nagEmailTopics: string;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const stack = Stack.of(this);
    this.emailTopicPrefix = `${stack.stackName}-alert-email-`;
    this.emailTopicArnPrefix = stack.formatArn({ service: 'sns', resource: this.emailTopicPrefix });
    this.emailTopicsArn = stack.formatArn({ service: 'sns', resource: `${this.emailTopicPrefix}*` });
    this.nagEmailTopics = `arn:${nagValue(stack, stack.partition)}:sns:${nagValue(stack, stack.region)}:${nagValue(stack, stack.account)}:${this.emailTopicPrefix}*`;
  }

  /** Lets a function make a user's alert topic, (re)subscribe their address and phone, and read the email subscription's confirmation. */
  grantEmailRoutes(fn: VatManFunction): void {
    fn.addEnvironment(ALERT_EMAIL_TOPIC_ARN_PREFIX_ENV, this.emailTopicArnPrefix);
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        sid: 'ManageUserAlertEmailTopics',
        // Unsubscribe and the subscription attributes are authorised on the subscription's ARN,
        // `<topic ARN>:<id>`, which the same pattern covers.
        actions: ['sns:CreateTopic', 'sns:Subscribe', 'sns:Unsubscribe', 'sns:GetSubscriptionAttributes', 'sns:SetSubscriptionAttributes'],
        resources: [this.emailTopicsArn],
      }),
    );
    acknowledge(
      fn.role,
      `IAM5[Resource::${this.nagEmailTopics}]`,
      "Each user's alert-email topic is made at run time, named by the stack's prefix and the user's id: the wildcard is that id only.",
    );
  }

  /** Lets a function send alerts: texts and email through the users' topics only (whose routes it may also make). */
  grantPublish(fn: VatManFunction): void {
    this.grantEmailRoutes(fn);
    fn.role.addToPrincipalPolicy(new PolicyStatement({ sid: 'PublishUserAlerts', actions: ['sns:Publish'], resources: [this.emailTopicsArn] }));
  }
}
