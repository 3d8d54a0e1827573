import { PublishCommand, type SNSClient } from '@aws-sdk/client-sns';
import { requireEnv } from '../../lib/env';
import { createSnsClient } from './alert-sender';

/** Mail to the sales team (the enquiry page, farmer §2.16): one SNS topic, the sales address subscribed to it. */
export interface SalesMail {
  send(subject: string, body: string): Promise<void>;
}

/** SNS caps an email subject at 100 characters, printable ASCII without line breaks. */
const subjectOf = (text: string): string => text.replace(/[^\x20-\x7e]/g, '?').slice(0, 100);

export const snsSalesMail = (client: SNSClient, topicArn: string): SalesMail => ({
  async send(subject, body) {
    await client.send(new PublishCommand({ TopicArn: topicArn, Subject: subjectOf(subject), Message: body }));
  },
});

/** The environment variable naming the enquiry topic (CDK sets it; the local stack makes the topic). */
export const ENQUIRY_TOPIC_ARN_ENV = 'ENQUIRY_TOPIC_ARN';

export const salesMailFromEnv = (env: NodeJS.ProcessEnv = process.env): SalesMail => snsSalesMail(createSnsClient(env), requireEnv(ENQUIRY_TOPIC_ARN_ENV, env));
