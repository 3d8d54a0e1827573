import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { optionalEnv, requireEnv } from '../../lib/env';

/** The port the notifier sends through: one text to a phone, one email to an address. */
export interface AlertSender {
  sms(phone: string, text: string): Promise<void>;
  email(to: string, subject: string, body: string): Promise<void>;
}

/**
 * SNS: a text is published to the phone number itself (transactional, so it is not dropped as
 * promotional); an email is published to the alert topic with the address as the `email`
 * attribute, and each user's email subscription carries the filter policy {"email": [address]},
 * so only that user receives it. Locally SNS_ENDPOINT points at the outbox.
 */
export const snsAlertSender = (client: SNSClient, topicArn: string): AlertSender => ({
  async sms(phone, text) {
    await client.send(
      new PublishCommand({
        PhoneNumber: phone,
        Message: text,
        MessageAttributes: {
          'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' },
          'AWS.SNS.SMS.SenderID': { DataType: 'String', StringValue: 'VatMan' },
        },
      }),
    );
  },
  async email(to, subject, body) {
    await client.send(
      new PublishCommand({
        TopicArn: topicArn,
        Subject: subject.slice(0, 99),
        Message: body,
        MessageAttributes: { email: { DataType: 'String', StringValue: to } },
      }),
    );
  },
});

export const createSnsClient = (env: NodeJS.ProcessEnv = process.env): SNSClient => {
  const endpoint = optionalEnv('SNS_ENDPOINT', env);
  return new SNSClient({ ...(endpoint ? { endpoint } : {}), region: optionalEnv('AWS_REGION', env) ?? 'us-east-1' });
};

export const alertSenderFromEnv = (env: NodeJS.ProcessEnv = process.env): AlertSender => snsAlertSender(createSnsClient(env), requireEnv('ALERTS_TOPIC_ARN', env));
