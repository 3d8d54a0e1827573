import { SNSClient } from '@aws-sdk/client-sns';
import { optionalEnv, requireEnv } from '../../lib/env';
import { alertEmailTopics, type AlertEmailRoutes, type AlertEmailTopics, type CallOptions, type EmailRecipient, type SendResult } from './alert-email';

/** The port the notifier sends through: one text to a user's verified phone, one email to a user. */
export interface AlertSender {
  sms(to: EmailRecipient & { readonly phone: string }, text: string, options?: CallOptions): Promise<SendResult>;
  email(to: EmailRecipient, subject: string, body: string, options?: CallOptions): Promise<SendResult>;
}

/**
 * SNS: both go through the user's own alert topic (`alert-email.ts`), a text to its SMS
 * subscription and an email to its email subscription, picked by the `channel` attribute.
 * Locally SNS_ENDPOINT points at the outbox.
 */
export const snsAlertSender = (topics: Pick<AlertEmailTopics, 'sms' | 'email'>): AlertSender => ({ sms: topics.sms, email: topics.email });

export const createSnsClient = (env: NodeJS.ProcessEnv = process.env): SNSClient => {
  const endpoint = optionalEnv('SNS_ENDPOINT', env);
  return new SNSClient({ ...(endpoint ? { endpoint } : {}), region: optionalEnv('AWS_REGION', env) ?? 'us-east-1' });
};

/** The environment variable naming the prefix of every user's alert topic (CDK sets it per stack). */
export const ALERT_EMAIL_TOPIC_ARN_PREFIX_ENV = 'ALERT_EMAIL_TOPIC_ARN_PREFIX';

/** Each user's alert-email topic and subscription (SNS in AWS, the outbox locally). */
export const alertEmailTopicsFromEnv = (
  routes: AlertEmailRoutes,
  env: NodeJS.ProcessEnv = process.env,
  sns: SNSClient = createSnsClient(env),
  now: () => Date = () => new Date(),
): AlertEmailTopics => alertEmailTopics(sns, requireEnv(ALERT_EMAIL_TOPIC_ARN_PREFIX_ENV, env), routes, now);
