import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { acknowledge } from '../nag';
import type { VatManFunction } from './vat-man-function';

/** The environment variable carrying the alert topic's ARN into a Lambda. */
export const ALERTS_TOPIC_ENV = 'ALERTS_TOPIC_ARN';

/**
 * Alert delivery: an SNS topic for alert email, and the right to text a phone number directly
 * (SNS SMS has no topic: the message is published to the number itself).
 */
export class Alerts extends Construct {
  readonly topic: Topic;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.topic = new Topic(this, 'AlertTopic', {
      displayName: 'Vat-Man alerts',
      // Publishers must use TLS (cdk-nag AwsSolutions-SNS3). No KMS key at rest: an alert is a
      // vat name, a reading and a time that email and SMS then carry in clear anyway, and the
      // AWS-managed SNS key would shut out AWS service publishers (CloudWatch alarms) later.
      enforceSSL: true,
    });
  }

  /** Lets a function publish alert email to the topic and SMS to phone numbers. */
  grantPublish(fn: VatManFunction): void {
    this.topic.grantPublish(fn);
    fn.addEnvironment(ALERTS_TOPIC_ENV, this.topic.topicArn);
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        sid: 'PublishSmsToPhoneNumbers',
        actions: ['sns:Publish'],
        resources: ['*'],
      }),
    );
    acknowledge(
      fn.role,
      'IAM5[Resource::*]',
      'SNS SMS is published straight to a phone number (PhoneNumber parameter), which has no ARN: IAM only accepts "*" as the resource of that sns:Publish.',
    );
  }
}
