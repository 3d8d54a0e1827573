import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { optionalEnv, requireEnv } from '../../lib/env';
import { alertEmailTopics, type AlertEmailRoutes, type AlertEmailTopics, type EmailRecipient } from './alert-email';

/** The port the notifier sends through: one text to a phone, one email to a user. */
export interface AlertSender {
  sms(phone: string, text: string): Promise<void>;
  email(to: EmailRecipient, subject: string, body: string): Promise<void>;
}

/**
 * SNS: a text is published to the phone number itself (transactional, so it is not dropped as
 * promotional); an email is published to the user's own alert topic, whose one subscription is
 * their address (`alert-email.ts`). Locally SNS_ENDPOINT points at the outbox.
 */
export const snsAlertSender = (client: SNSClient, emailTopics: Pick<AlertEmailTopics, 'send'>): AlertSender => ({
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
    await emailTopics.send(to, subject, body);
  },
});

export const createSnsClient = (env: NodeJS.ProcessEnv = process.env): SNSClient => {
  const endpoint = optionalEnv('SNS_ENDPOINT', env);
  return new SNSClient({ ...(endpoint ? { endpoint } : {}), region: optionalEnv('AWS_REGION', env) ?? 'us-east-1' });
};

/** The environment variable naming the prefix of every user's alert topic (CDK sets it per stack). */
export const ALERT_EMAIL_TOPIC_ARN_PREFIX_ENV = 'ALERT_EMAIL_TOPIC_ARN_PREFIX';

/** Each user's alert-email topic and subscription (SNS in AWS, the outbox locally). */
export const alertEmailTopicsFromEnv = (routes: AlertEmailRoutes, env: NodeJS.ProcessEnv = process.env, sns: SNSClient = createSnsClient(env)): AlertEmailTopics =>
  alertEmailTopics(sns, requireEnv(ALERT_EMAIL_TOPIC_ARN_PREFIX_ENV, env), routes);
