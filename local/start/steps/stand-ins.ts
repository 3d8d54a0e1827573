import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createLogger } from '../../../lambdas/lib/logger';
import { DEFAULT_CONTACTS, type Contacts } from '../../../shared/config';
import { isDairyCompanyFarm } from '../../../shared/entities/farm';
import type { LiveEvent, LiveResult } from '../../../lambdas/live/live';
import { DEMO_ACCOUNTS, DEMO_FARMS } from '../../seed/demo-data';
import { startDairyGateway } from '../../stand-ins/dairy-gateway';
import { ensureTables, startDynamo } from '../../stand-ins/dynamodb';
import { startIotControlPlane } from '../../stand-ins/iot-control';
import { localCa } from '../../stand-ins/local-ca';
import { startSnsOutbox } from '../../stand-ins/sns-outbox';
import { startSqs } from '../../stand-ins/sqs';
import { startSsm } from '../../stand-ins/ssm';
import { startPushService } from '../../stand-ins/push-service';
import { localVapidKeys, PUSH_LOCAL_ENV } from '../../stand-ins/push-keys';
import type { startSnsOutbox as SnsOutboxStart } from '../../stand-ins/sns-outbox';
import { HERD_SITE_PATH } from '../../stand-ins/web-hosting';
import { startWebSocketGateway } from '../../stand-ins/websocket-gateway';
import type { Closers } from '../closers';
import { DAIRY_TOKEN, DAIRY_TOKEN_PARAMETER, importFunction, TABLE_PREFIX, type LocalConfig } from '../config';

const log = createLogger({ service: 'local-stack' });

/** DynamoDB (dynalite, on disk) with the stack's tables. */
export const startDatabase = async (config: LocalConfig, closers: Closers) => {
  const dynamo = await startDynamo(config.ports.dynamodb, join(config.dataDir, 'dynamodb'));
  closers.add(() => dynamo.stop());
  const ddb = new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1' });
  const tableEnv = await ensureTables(ddb, TABLE_PREFIX);
  return { dynamo, ddb, tableEnv };
};

/** SNS's outbox (every text and email sent) with the provider's contacts and the enquiry topic. */
export const startMessaging = async (config: LocalConfig, closers: Closers) => {
  // The demo accounts stand for people who confirmed their alert email long ago; anyone else
  // (a sign-up, a changed address) confirms through the link in the outbox's confirmation email.
  const demoEmails = new Set(DEMO_ACCOUNTS.map((a) => a.email.toLowerCase()));
  const sns = await startSnsOutbox(config.ports.sns, join(config.dataDir, 'outbox', 'messages.jsonl'), { preconfirmed: (email) => demoEmails.has(email.toLowerCase()) });
  closers.addServer(sns.server);
  // The provider's contacts (shared/config.ts): the herd site is the web server's stand-in page,
  // enquiries go to a local sales address through the enquiry topic (the outbox).
  const contacts: Contacts = {
    ...DEFAULT_CONTACTS,
    herdSiteUrl: `${config.webUrl}${HERD_SITE_PATH}`,
    salesEmail: 'sales@vatman.local',
    ...(config.liveMonitoringUrl ? { liveMonitoringUrl: config.liveMonitoringUrl } : {}),
  };
  const enquiryTopic = sns.ensureEmailTopic('vatman-local-enquiries', contacts.salesEmail);
  // SQS: the ingest's dead-letter queue (the stream's on-failure destination).
  const sqs = await startSqs(config.ports.sqs);
  closers.addServer(sqs.server);
  return { sns, contacts, enquiryTopic, sqs };
};

/** The dairy company's gateway, with its token in SSM Parameter Store (read at run time, as in AWS). */
export const startDairyCompany = async (config: LocalConfig, closers: Closers) => {
  // It knows the demo's dairy-company farms, and its dockets for the Pro farm's vat 2 read 4 %
  // low, so calibration has something to find.
  const dairyGateway = await startDairyGateway(config.ports.dairy, {
    farms: DEMO_FARMS.filter((f) => isDairyCompanyFarm(f.fonterra_id)).map((f) => f.fonterra_id),
    token: DAIRY_TOKEN,
    offVats: { '31245#2': 0.96 },
  });
  closers.addServer(dairyGateway.server);
  const ssm = await startSsm(config.ports.ssm);
  closers.addServer(ssm.server);
  ssm.put(DAIRY_TOKEN_PARAMETER, DAIRY_TOKEN);
  /** The company issues a new token and the operator puts it in the parameter (the functions read it again on their next 401). */
  const rotateDairyToken = (token: string) => {
    dairyGateway.rotateToken(token);
    ssm.put(DAIRY_TOKEN_PARAMETER, token);
  };
  return { dairyGateway, ssm, rotateDairyToken };
};

/**
 * The browsers' push service (Web Push), recording each push in the outbox; the VAPID key pair is
 * kept with the data (a new key would orphan every subscription), its private half in SSM as in AWS.
 */
export const startWebPush = async (config: LocalConfig, closers: Closers, sns: Awaited<ReturnType<typeof SnsOutboxStart>>, ssm: { put(name: string, value: string): void }) => {
  const pushService = await startPushService(config.ports.push, sns);
  closers.addServer(pushService.server);
  const vapid = localVapidKeys(join(config.dataDir, 'push', 'vapid.json'));
  ssm.put(PUSH_LOCAL_ENV.VAPID_PRIVATE_KEY_PARAMETER, vapid.privateKey);
  return { pushService, vapid };
};

/** IoT's control plane (things, certificates, the device policy) with a local CA for real X.509. */
export const startIot = async (config: LocalConfig, closers: Closers) => {
  const ca = localCa(join(config.dataDir, 'iot', 'ca'));
  const iot = await startIotControlPlane(config.ports.iot, join(config.dataDir, 'iot'), ca, 'localhost');
  closers.addServer(iot.server);
  return { ca, iot };
};

/**
 * The live-updates WebSocket API: its function in process like the API's, the @connections
 * management endpoint on the same port for the ingest's pushes.
 */
export const startLiveGateway = async (config: LocalConfig, closers: Closers) => {
  let liveHandler: ((event: LiveEvent) => Promise<LiveResult>) | undefined;
  const live = await startWebSocketGateway({
    port: config.ports.live,
    routes: ['subscribe'],
    handler: async (event) => {
      liveHandler ??= (await importFunction<{ handler: (e: LiveEvent) => Promise<LiveResult> }>(config, 'lambdas/live/handler.ts')).handler;
      return liveHandler(event);
    },
    onError: (err) => log.error('live gateway integration error', { err }),
  });
  closers.add(() => live.close());
  return live;
};
