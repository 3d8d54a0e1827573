import { SNSClient } from '@aws-sdk/client-sns';
import { optionalEnv, requireEnv } from '../../lib/env';
import { alertEmailTopics } from './alert-email';
import type { AlertEmailRoutes, AlertEmailTopics, AlertSender } from '../../ports/alert-email';
import { ALERT_EMAIL_TOPIC_ARN_PREFIX_ENV } from '../../ports/env-names';
import { instrumented } from '../aws-client';

/**
 * SNS: both go through the user's own alert topic (`alert-email.ts`), a text to its SMS
 * subscription and an email to its email subscription, picked by the `channel` attribute.
 * Locally SNS_ENDPOINT points at the outbox.
 */
export const snsAlertSender = (topics: Pick<AlertEmailTopics, 'sms' | 'email'>): AlertSender => ({ sms: topics.sms, email: topics.email });

export const createSnsClient = (env: NodeJS.ProcessEnv = process.env): SNSClient => {
  const endpoint = optionalEnv('SNS_ENDPOINT', env);
  return instrumented(new SNSClient({ ...(endpoint ? { endpoint } : {}), region: optionalEnv('AWS_REGION', env) ?? 'us-east-1' }));
};

/** Each user's alert-email topic and subscription (SNS in AWS, the outbox locally). */
export const alertEmailTopicsFromEnv = (
  routes: AlertEmailRoutes,
  env: NodeJS.ProcessEnv = process.env,
  sns: SNSClient = createSnsClient(env),
  now: () => Date = () => new Date(),
): AlertEmailTopics => alertEmailTopics(sns, requireEnv(ALERT_EMAIL_TOPIC_ARN_PREFIX_ENV, env), routes, now);
