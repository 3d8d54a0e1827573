/**
 * The functions run in this process and read their configuration from `process.env` at their cold
 * start, as a Lambda reads its environment: this module is the only place the local stack writes
 * it. The variables are those CDK sets on every function; only the values differ.
 */
import { ENQUIRY_TOPIC_ARN_ENV } from '../../lambdas/ports/env-names';
import { INGEST_DEAD_LETTERS_URL_ENV } from '../../lambdas/ports/fleet';
import { LIVE_ENDPOINT_ENV } from '../../shared/live/endpoint-env';
import { PUSH_LOCAL_ENV } from '../stand-ins/push-keys';
import { DAIRY_TOKEN_PARAMETER, LOCAL_DEVICE_POLICY, type LocalConfig } from './config';

/** Never reach for real AWS credentials or the instance metadata service from the local stack. */
export const isolateFromAws = (): void => {
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_REGION: 'us-east-1' });
  delete process.env.AWS_PROFILE;
  delete process.env.AWS_SESSION_TOKEN;
};

/** What the stand-ins tell the functions: where each one listens. */
interface StandInEndpoints {
  readonly tableEnv: Readonly<Record<string, string | undefined>>;
  readonly dynamodb: string;
  readonly cognito: { readonly endpoint: string; readonly userPoolId: string; readonly clientId: string; readonly issuer: string };
  readonly sns: string;
  readonly enquiryTopic: string;
  readonly dairyGateway: string;
  readonly ssm: string;
  readonly iot: string;
  readonly caPem: string;
  /** The live-updates gateway's @connections management endpoint. */
  readonly liveConnections: string;
  /** The ingest's dead-letter queue's URL. */
  readonly ingestDeadLetters: string;
  /** Web Push's VAPID public key (its private half is in the SSM stand-in). */
  readonly vapidPublicKey: string;
}

export const functionEnvOf = (config: LocalConfig, s: StandInEndpoints): Record<string, string> => ({
  ...(Object.fromEntries(Object.entries(s.tableEnv).filter(([, v]) => v !== undefined)) as Record<string, string>),
  WEB_URL: config.webUrl,
  DYNAMODB_ENDPOINT: s.dynamodb,
  COGNITO_ENDPOINT: s.cognito.endpoint,
  USER_POOL_ID: s.cognito.userPoolId,
  USER_POOL_CLIENT_ID: s.cognito.clientId,
  JWT_ISSUER: s.cognito.issuer,
  JWKS_URI: `${s.cognito.issuer}/.well-known/jwks.json`,
  SNS_ENDPOINT: s.sns,
  [ENQUIRY_TOPIC_ARN_ENV]: s.enquiryTopic,
  // Each user's alert email topic is this and their id (lambdas/adapters/sns/alert-email.ts).
  ALERT_EMAIL_TOPIC_ARN_PREFIX: 'arn:aws:sns:us-east-1:000000000000:vatman-local-alert-email-',
  // The bot-check is off locally, explicitly (production sets recaptcha; see README).
  BOT_CHECK: 'off',
  // Under the tests every API answer is parsed with its contract's answer schema (never in AWS):
  // an answer that strays from its contract is a 500 there, not a silent drift. Not for
  // `npm start` and the bench, which must measure what AWS runs (a 30-day range is 16,000 points).
  CHECK_ANSWERS: config.checkAnswers ? '1' : '0',
  // The dairy company's gateway; its URL (CDK context in AWS) and its token's SSM parameter.
  DAIRY_GATEWAY_URL: s.dairyGateway,
  DAIRY_GATEWAY_TOKEN_PARAMETER: DAIRY_TOKEN_PARAMETER,
  SSM_ENDPOINT: s.ssm,
  // Web Push: the public key, the private key's parameter, and http endpoints on this machine allowed.
  ...PUSH_LOCAL_ENV,
  VAPID_PUBLIC_KEY: s.vapidPublicKey,
  PUSH_ACK_URL: `${config.webUrl}/api/user`,
  // The same @aws-sdk/client-iot code as in AWS, against the stand-in (local/stand-ins/iot-control.ts).
  IOT_ENDPOINT: s.iot,
  IOT_DEVICE_POLICY: LOCAL_DEVICE_POLICY,
  // What a unit trusts for the broker's TLS port: the local CA (in AWS, Amazon Root CA 1).
  IOT_ROOT_CA_PEM: s.caPem,
  // The ingest's dead-letter queue, counted by the operators' overview (decision 075).
  [INGEST_DEAD_LETTERS_URL_ENV]: s.ingestDeadLetters,
  [LIVE_ENDPOINT_ENV]: s.liveConnections,
});

/**
 * Sets the functions' variables. Most are known once the stand-ins listen; a few only later (the
 * farm-flag user ids after the seed, the broker's URL once it listens), and are set then, before
 * any function that reads them has its cold start.
 */
export const setFunctionEnv = (vars: Readonly<Record<string, string>>): void => {
  Object.assign(process.env, vars);
};
