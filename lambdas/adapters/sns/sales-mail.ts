import { PublishCommand, type SNSClient } from '@aws-sdk/client-sns';
import { requireEnv } from '../../lib/env';
import { createSnsClient } from './alert-sender';
import type { SalesMail } from '../../ports/enquiries';
import { ENQUIRY_TOPIC_ARN_ENV } from '../../ports/env-names';

/** SNS caps an email subject at 100 characters, printable ASCII without line breaks. */
const subjectOf = (text: string): string => text.replace(/[^\x20-\x7e]/g, '?').slice(0, 100);

const snsSalesMail = (client: SNSClient, topicArn: string): SalesMail => ({
  async send(subject, body) {
    await client.send(new PublishCommand({ TopicArn: topicArn, Subject: subjectOf(subject), Message: body }));
  },
});

export const salesMailFromEnv = (env: NodeJS.ProcessEnv = process.env): SalesMail => snsSalesMail(createSnsClient(env), requireEnv(ENQUIRY_TOPIC_ARN_ENV, env));
