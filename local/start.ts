/**
 * `npm start`: the whole product on embedded stand-ins for every AWS part (docs/architecture.md,
 * "Local stack"). Data lives under .data/ and survives restarts.
 */
import './quiet-warnings';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { CustomMessageTriggerEvent, KinesisStreamBatchResponse } from 'aws-lambda';
import { createLogger } from '../lambdas/lib/logger';
import { createTokenVerifier } from '../lambdas/lib/token-verifier';
import { createDocumentClient } from '../lambdas/adapters/dynamodb/client';
import { dynamoEquipmentRepository } from '../lambdas/adapters/dynamodb/equipment-repository';
import { dynamoOrganizationRepository } from '../lambdas/adapters/dynamodb/organizations-repository';
import { dynamoFarmRepository } from '../lambdas/adapters/dynamodb/farms-repository';
import { dynamoMilkingWindowsRepository } from '../lambdas/adapters/dynamodb/milking-windows-repository';
import { dynamoInstallRepository } from '../lambdas/adapters/dynamodb/installs-repository';
import { dynamoIngestCounters } from '../lambdas/adapters/dynamodb/fleet-repository';
import { DEVICE_TOPIC_FILTER, telemetryTopic, UNIT_TELEMETRY_TOPIC_FILTER, unitTelemetryTopic } from '../shared/telemetry/device-message';
import { assertPortFree, PortError, portOf, PORTS, type PortName } from './ports';
import { startDynamo, ensureTables, expirySweeper } from './stand-ins/dynamodb';
import { startCognito } from './stand-ins/cognito';
import { startSnsOutbox } from './stand-ins/sns-outbox';
import { startIotControlPlane } from './stand-ins/iot-control';
import { localCa } from './stand-ins/local-ca';
import { unitAttributes, unitThingName } from '../shared/entities/install';
import { startApiGateway, type ApiLambda } from './stand-ins/api-gateway';
import { startWebSocketGateway } from './stand-ins/websocket-gateway';
import { LIVE_ENDPOINT_ENV } from '../shared/live/endpoint-env';
import type { LiveEvent, LiveResult } from '../lambdas/live/live';
import { startMqttBroker } from './stand-ins/mqtt-broker';
import { startScheduler } from './stand-ins/scheduler';
import { startDairyGateway, type DairyGateway } from './stand-ins/dairy-gateway';
import { startSsm } from './stand-ins/ssm';
import { startPushService } from './stand-ins/push-service';
import { localVapidKeys, PUSH_LOCAL_ENV } from './stand-ins/push-keys';
import { isDairyCompanyFarm } from '../shared/entities/farm';
import { HERD_SITE_PATH, startWebHosting } from './stand-ins/web-hosting';
import { DEFAULT_CONTACTS, type Contacts } from '../shared/config';
import { ENQUIRY_TOPIC_ARN_ENV } from '../lambdas/ports/env-names';
import { DEAD_LETTERS_RECORDED_ENV } from '../lambdas/ports/fleet';
import { startLambdaInvoke, type InvokeTarget } from './stand-ins/lambda-invoke';
import { startLambdaPool } from './stand-ins/lambda-pool';
import { startKinesisStream } from './stand-ins/kinesis-stream';
import { deadLetterLines } from './replay-dlq';
import { INGEST_FUNCTION, INGEST_STREAM } from '../lambdas/ingest/stream-settings';
import { cognitoMessages, poolUsers } from './stand-ins/cognito-messages';
import { enrolDemoTotp } from './seed/totp';
import { seedDemo, seedDemoEquipment, seedDemoMilkingWindows, seedDemoOrganization, seedDemoUnits } from './seed/seed';
import { DEMO_ACCOUNTS, DEMO_DEVICES, DEMO_FARMS, DEMO_KNODE, DEMO_PASSWORD, DEMO_UNIT_IMEIS, FARM_FLAG_ACCOUNTS } from './seed/demo-data';
import { simFarmsFrom, startSimulator, type SimulatorHandle } from './simulator/simulator';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const TABLE_PREFIX = 'vatman';
const CUSTOM_MESSAGE_FUNCTION = 'vatman-custom-message';
const POST_CONFIRMATION_FUNCTION = 'vatman-post-confirmation';
const PRE_TOKEN_GENERATION_FUNCTION = 'vatman-pre-token-generation';
const PRE_SIGN_UP_FUNCTION = 'vatman-pre-sign-up';
/** The device policy's name locally (in AWS the stack's DevicePolicy). */
const LOCAL_DEVICE_POLICY = 'vatman-local-device-policy';
const log = createLogger({ service: 'local-stack' });

export interface LocalFacts {
  web: string;
  api: string;
  mqtt: string;
  /** The broker's mutual-TLS port (mqtts://localhost:<port>): a unit's certificate, key and the local CA. */
  mqttTls: string;
  sns: string;
  /** The live-updates WebSocket (issue 26): ws://localhost:<port>/?token=<access token>. */
  live: string;
  dynamodb: { endpoint: string; farmsTable: string; readingsTable: string; alertsTable: string };
  /** The dairy company's gateway stand-in (issue 21). */
  dairyGateway: string;
  /** The Web Push service stand-in (subscription endpoints are <push>/push/<id>). */
  push: string;
  /** The simulator's fault control (POST/GET /faults), when it runs. */
  simulator?: { control: string };
  cognito: { endpoint: string; userPoolId: string; clientId: string; region: string };
  /** `totpSecret`: the authenticator app's secret of a demo operator (the seed enrols them; operator roles need TOTP). */
  accounts: { role: string; email: string; password: string; totpSecret?: string }[];
  farms: { fonterra_id: string; package: string; vats: { vat_number: number; device_id: string; topic: string }[] }[];
}

/** The demo operators' TOTP secrets the last start wrote to local.json, by email (none on a first start). */
const previousTotpSecrets = (file: string): Record<string, string> => {
  if (!existsSync(file)) return {};
  try {
    const facts = JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalFacts>;
    return Object.fromEntries((facts.accounts ?? []).flatMap((a) => (a.totpSecret ? [[a.email, a.totpSecret]] : [])));
  } catch {
    return {};
  }
};

export interface LocalStackOptions {
  /** Where state is kept; default .data/ at the repository root. */
  readonly dataDir?: string;
  /** The web build to serve; default frontend/dist. */
  readonly distDir?: string;
  /**
   * Run the device simulator for the demo farms (npm start does; tests drive devices themselves).
   * @default false
   */
  readonly simulator?: boolean;
  /**
   * Run the dairy-company sync every minute (the exporter: events out, dockets in). Tests that
   * drive the exporter with their own clock turn it off.
   * @default true
   */
  readonly dairySync?: boolean;
  /**
   * Run Watchman (issue 22) on a timer like its hourly EventBridge schedule
   * (`WATCHMAN_EVERY_MINUTES` changes the rate locally). Tests that run it themselves turn it off.
   * @default true
   */
  readonly watchman?: boolean;
}

let stacksStarted = 0;

export const startLocalStack = async (options: LocalStackOptions = {}) => {
  const stackId = ++stacksStarted;
  const DATA = resolve(options.dataDir ?? join(ROOT, '.data'));
  const ports = Object.fromEntries((Object.keys(PORTS) as PortName[]).map((n) => [n, portOf(n)])) as Record<PortName, number>;
  for (const name of Object.keys(ports) as PortName[]) await assertPortFree(name, ports[name]);
  mkdirSync(DATA, { recursive: true });
  const closers: (() => Promise<void> | void)[] = [];
  // Keep-alive connections (the SDK clients') would hold close() open: end them too.
  const closeServer = (s: import('node:net').Server) => () =>
    new Promise<void>((r) => {
      s.close(() => r());
      (s as Partial<import('node:http').Server>).closeAllConnections?.();
    });

  try {
    // Never reach for real AWS credentials or the instance metadata service from the local stack.
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_REGION: 'us-east-1' });
    delete process.env.AWS_PROFILE;
    delete process.env.AWS_SESSION_TOKEN;

    const dynamo = await startDynamo(ports.dynamodb, join(DATA, 'dynamodb'));
    closers.push(() => dynamo.stop());
    const ddb = new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1' });
    const tableEnv = await ensureTables(ddb, TABLE_PREFIX);

    // The demo accounts stand for people who confirmed their alert email long ago; anyone else
    // (a sign-up, a changed address) confirms through the link in the outbox's confirmation email.
    const demoEmails = new Set(DEMO_ACCOUNTS.map((a) => a.email.toLowerCase()));
    const sns = await startSnsOutbox(ports.sns, join(DATA, 'outbox', 'messages.jsonl'), { preconfirmed: (email) => demoEmails.has(email.toLowerCase()) });
    closers.push(closeServer(sns.server));

    // The dairy company's gateway (issue 21): it knows the demo's dairy-company farms, and its
    // dockets for the Pro farm's vat 2 read 4 % low, so calibration has something to find.
    const DAIRY_TOKEN = 'local-dairy-gateway-token';
    const DAIRY_TOKEN_PARAMETER = '/vatman/dairy-gateway-token';
    const dairyGateway: DairyGateway = await startDairyGateway(ports.dairy, {
      farms: DEMO_FARMS.filter((f) => isDairyCompanyFarm(f.fonterra_id)).map((f) => f.fonterra_id),
      token: DAIRY_TOKEN,
      offVats: { '31245#2': 0.96 },
    });
    closers.push(closeServer(dairyGateway.server));
    // SSM Parameter Store: the gateway's token is read from it at run time, as in AWS.
    const ssm = await startSsm(ports.ssm);
    closers.push(closeServer(ssm.server));
    ssm.put(DAIRY_TOKEN_PARAMETER, DAIRY_TOKEN);
    /** The company issues a new token and the operator puts it in the parameter (the functions read it again on their next 401). */
    const rotateDairyToken = (token: string) => {
      dairyGateway.rotateToken(token);
      ssm.put(DAIRY_TOKEN_PARAMETER, token);
    };
    // The browsers' push service (Web Push), recording each push in the outbox; the VAPID key pair
    // is kept with the data (a new key would orphan every subscription), its private half in SSM as in AWS.
    const pushService = await startPushService(ports.push, sns);
    closers.push(closeServer(pushService.server));
    const vapid = localVapidKeys(join(DATA, 'push', 'vapid.json'));
    ssm.put(PUSH_LOCAL_ENV.VAPID_PRIVATE_KEY_PARAMETER, vapid.privateKey);
    // IoT's control plane (things, certificates, the device policy) with a local CA for real X.509.
    const ca = localCa(join(DATA, 'iot', 'ca'));
    const iot = await startIotControlPlane(ports.iot, join(DATA, 'iot'), ca, 'localhost');
    closers.push(closeServer(iot.server));

    const web = `http://localhost:${ports.web}`;
    process.env.WEB_URL = web;
    // The provider's contacts (shared/config.ts): the herd site is the web server's stand-in page,
    // enquiries go to a local sales address through the enquiry topic (the outbox).
    const contacts: Contacts = { ...DEFAULT_CONTACTS, herdSiteUrl: `${web}${HERD_SITE_PATH}`, salesEmail: 'sales@vatman.local' };
    const enquiryTopic = sns.ensureEmailTopic('vatman-local-enquiries', contacts.salesEmail);

    // Cognito's emails and texts, delivered to the outbox (cognito-local only prints them).
    // Codes come only once cognito-local has started, so the pool is there to read their users from.
    const cognitoMail = cognitoMessages(sns, web, { userOf: (email) => poolUsers(cognito.client, cognito.userPoolId).userOf(email) });
    // Lambda Invoke stand-in: cognito-local runs the product's CustomMessage trigger through it.
    const lambdas = await startLambdaInvoke(
      ports.lambda,
      {
        [CUSTOM_MESSAGE_FUNCTION]: async () => {
          const url = new URL(`../lambdas/triggers/custom-message.ts?stack=${stackId}`, import.meta.url);
          const { handler } = (await import(url.href)) as { handler: InvokeTarget };
          return async (event) => {
            cognitoMail.noteTrigger(event as CustomMessageTriggerEvent);
            return handler(event);
          };
        },
        // A confirmed sign-up gets its alert-email topic and subscription (issue 6).
        [POST_CONFIRMATION_FUNCTION]: async () => {
          const url = new URL(`../lambdas/triggers/post-confirmation.ts?stack=${stackId}`, import.meta.url);
          return ((await import(url.href)) as { handler: InvokeTarget }).handler;
        },
        // Every self-service sign-up passes the bot-check (issue 13; off locally by BOT_CHECK).
        [PRE_SIGN_UP_FUNCTION]: async () => {
          const url = new URL(`../lambdas/triggers/pre-sign-up.ts?stack=${stackId}`, import.meta.url);
          return ((await import(url.href)) as { handler: InvokeTarget }).handler;
        },
        // Every token says whether its user has an authenticator app (issue 13).
        [PRE_TOKEN_GENERATION_FUNCTION]: async () => {
          const url = new URL(`../lambdas/triggers/pre-token-generation.ts?stack=${stackId}`, import.meta.url);
          return ((await import(url.href)) as { handler: InvokeTarget }).handler;
        },
      },
      (name, err) => log.error('trigger failed', { name, err }),
    );
    closers.push(closeServer(lambdas.server));

    const cognito = await startCognito({
      port: ports.cognito,
      dir: join(DATA, 'cognito'),
      lambdaEndpoint: lambdas.endpoint,
      triggers: { CustomMessage: CUSTOM_MESSAGE_FUNCTION, PostConfirmation: POST_CONFIRMATION_FUNCTION, PreTokenGeneration: PRE_TOKEN_GENERATION_FUNCTION, PreSignUp: PRE_SIGN_UP_FUNCTION },
      onCode: (c) => {
        // Cognito emails or texts the code itself in AWS; here it goes to the outbox and the console.
        void cognitoMail
          .deliver(c)
          .then((mail) => {
            if (!mail) return;
            log.info('cognito message delivered to the outbox', { channel: mail.channel, to: mail.to, code: c.code });
            // A person running `npm start` reads the code on the console; the tests find it in the outbox.
            if (!process.env.VATMAN_LOG_FILE) console.log(`\n  ✉  ${mail.subject ?? 'Text'} for ${mail.to}: code ${c.code}\n`);
          })
          .catch((err: unknown) => log.error('cognito message not delivered to the outbox', { to: c.destination, err }));
      },
    });
    closers.push(() => cognito.stop());

    // The same variables CDK sets on every Lambda; only the values differ.
    Object.assign(process.env, {
      ...tableEnv,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      COGNITO_ENDPOINT: cognito.endpoint,
      USER_POOL_ID: cognito.userPoolId,
      USER_POOL_CLIENT_ID: cognito.clientId,
      JWT_ISSUER: cognito.issuer,
      JWKS_URI: `${cognito.issuer}/.well-known/jwks.json`,
      SNS_ENDPOINT: sns.endpoint,
      [ENQUIRY_TOPIC_ARN_ENV]: enquiryTopic,
      // Each user's alert email topic is this and their id (lambdas/adapters/sns/alert-email.ts).
      ALERT_EMAIL_TOPIC_ARN_PREFIX: 'arn:aws:sns:us-east-1:000000000000:vatman-local-alert-email-',
      // The bot-check is off locally, explicitly (production sets recaptcha; see README).
      BOT_CHECK: 'off',
      // Under the tests every API answer is parsed with its contract's answer schema (never in AWS):
      // an answer that strays from its contract is a 500 there, not a silent drift. Not for
      // `npm start` and the bench, which must measure what AWS runs (a 30-day range is 16,000 points).
      CHECK_ANSWERS: process.env.VITEST ? '1' : '0',
      // The dairy company's gateway; its URL (CDK context in AWS) and its token's SSM parameter.
      DAIRY_GATEWAY_URL: dairyGateway.url,
      DAIRY_GATEWAY_TOKEN_PARAMETER: DAIRY_TOKEN_PARAMETER,
      SSM_ENDPOINT: ssm.endpoint,
      // Web Push: the public key, the private key's parameter, and http endpoints on this machine allowed.
      ...PUSH_LOCAL_ENV,
      VAPID_PUBLIC_KEY: vapid.publicKey,
      PUSH_ACK_URL: `${web}/api/user`,
      // The same @aws-sdk/client-iot code as in AWS, against the stand-in (local/stand-ins/iot-control.ts).
      IOT_ENDPOINT: iot.endpoint,
      IOT_DEVICE_POLICY: LOCAL_DEVICE_POLICY,
      // What a unit trusts for the broker's TLS port: the local CA (in AWS, Amazon Root CA 1).
      IOT_ROOT_CA_PEM: ca.caPem,
      // The on-failure destination below records its batches for the operators' overview (decision 055).
      [DEAD_LETTERS_RECORDED_ENV]: '1',
    });

    const farms = dynamoFarmRepository(createDocumentClient(), tableEnv.FARMS_TABLE as string);
    const demoIds = await seedDemo(farms, cognito.client, cognito.userPoolId);
    const totpSecrets = await enrolDemoTotp(cognito.client, cognito.userPoolId, cognito.clientId, previousTotpSecrets(join(DATA, 'local.json')));
    // operator §6's fixed list of user ids that may set the farm flags: in AWS CDK context
    // farmFlagUserIds; here the demo accounts of FARM_FLAG_ACCOUNTS, whose ids the seed knows.
    process.env.FARM_FLAG_USER_IDS = FARM_FLAG_ACCOUNTS.map((email) => demoIds[email]).filter(Boolean).join(',');
    await seedDemoOrganization(dynamoOrganizationRepository(createDocumentClient(), tableEnv.FARMS_TABLE as string), demoIds);
    await seedDemoEquipment(dynamoEquipmentRepository(createDocumentClient(), tableEnv.FARMS_TABLE as string));
    await seedDemoMilkingWindows(dynamoMilkingWindowsRepository(createDocumentClient(), tableEnv.FARMS_TABLE as string));
    await seedDemoUnits(dynamoInstallRepository(createDocumentClient(), tableEnv.FARMS_TABLE as string));
    // The demo farms' units are things of the registry, as a deployed fleet's are.
    for (const f of DEMO_FARMS) {
      const imei = DEMO_UNIT_IMEIS[f._id];
      if (imei) iot.ensureThing(unitThingName(imei), unitAttributes(imei, f.fonterra_id, f.package, false));
    }

    const verifier = createTokenVerifier({ issuer: cognito.issuer, jwksUri: process.env.JWKS_URI as string, audience: [cognito.clientId] });
    const api = await startApiGateway({
      port: ports.api,
      verifier,
      loadHandler: async (endpoint) => {
        // One module instance per stack start, like a fresh Lambda container: its cold start
        // reads this stack's configuration (tests start several stacks in one process).
        const url = new URL(`../lambdas/api/${endpoint.handler}.ts?stack=${stackId}`, import.meta.url);
        const mod = (await import(url.href)) as { handler: ApiLambda };
        return mod.handler;
      },
      onError: (err) => log.error('gateway integration error', { err }),
    });
    closers.push(closeServer(api.server));

    // The live-updates WebSocket API (issue 26): its function in process like the API's, the
    // @connections management endpoint on the same port for the ingest's pushes.
    let liveHandler: ((event: LiveEvent) => Promise<LiveResult>) | undefined;
    const live = await startWebSocketGateway({
      port: ports.live,
      routes: ['subscribe'],
      handler: async (event) => {
        if (!liveHandler) {
          const url = new URL(`../lambdas/live/handler.ts?stack=${stackId}`, import.meta.url);
          liveHandler = ((await import(url.href)) as { handler: (e: LiveEvent) => Promise<LiveResult> }).handler;
        }
        return liveHandler(event);
      },
      onError: (err) => log.error('live gateway integration error', { err }),
    });
    closers.push(() => live.close());
    process.env[LIVE_ENDPOINT_ENV] = live.endpoint;

    // IoT Core stand-in: the topic rule puts every device message on the ingest stream, keyed by
    // thing name, in the record the rule's SQL makes in AWS (cdk/lib/constructs/telemetry.ts). The
    // ingest consumes the stream's shards in "containers" (worker threads), apart from the broker
    // and the API gateway: shard i always in container i, one batch at a time, like Lambda.
    const ingest = await startLambdaPool({ modulePath: new URL('../lambdas/ingest/handler.ts', import.meta.url).href, env: process.env, size: INGEST_STREAM.localShards, semiSpaceMb: INGEST_FUNCTION.semiSpaceMb });
    closers.push(() => ingest.stop());
    const deadLetters = join(DATA, 'ingest-dead-letters.jsonl');
    const deadLetterCounters = dynamoIngestCounters(createDocumentClient(), tableEnv.ALERTS_TABLE as string);
    const ingestStream = startKinesisStream({
      streamName: 'vatman-ingest',
      shards: INGEST_STREAM.localShards,
      batchSize: INGEST_STREAM.batchSize,
      retryAttempts: INGEST_STREAM.retryAttempts,
      consume: (shard, event) => ingest.invokeOn(shard, event) as Promise<KinesisStreamBatchResponse>,
      // The on-failure destination: the records themselves, one JSON line each (npm run replay-dlq).
      onFailure: ({ shard, records, error }) => {
        log.error('ingest batch failed after its retries; records kept', { shard, records: records.length, file: deadLetters, err: error });
        appendFileSync(deadLetters, deadLetterLines(shard, records));
        deadLetterCounters.recordDeadLetters(new Date(), 1).catch((err: unknown) => log.error('dead letter not counted', { err }));
      },
    });
    closers.push(() => ingestStream.stop());
    // Devices' answers to commands (controller settings, issue 6): the device-reply rule of
    // cdk/lib/constructs/alert-engine.ts, `SELECT *, topic(2) AS thing FROM 'dts/+/cmd/reply'`.
    const deviceReplyUrl = new URL(`../lambdas/alerts/device-reply-handler.ts?stack=${stackId}`, import.meta.url);
    const deviceReply = ((await import(deviceReplyUrl.href)) as { handler: (event: unknown) => Promise<void> }).handler;
    // The ingest rules' action: the rule event on the stream, keyed by thing name (topic level 2).
    const toIngestStream = async ({ topic, payload }: { topic: string; payload: Buffer }) =>
      ingestStream.put(topic.split('/')[1] ?? topic, Buffer.from(JSON.stringify({ payload: payload.toString('base64'), topic, received_at: Date.now() })));
    const mqtt = await startMqttBroker(
      ports.mqtt,
      [
        {
          name: 'telemetry-ingest',
          topicFilter: DEVICE_TOPIC_FILTER,
          target: toIngestStream,
        },
        {
          // A unit's vats (issue 20): the UnitIngestRule of cdk/lib/constructs/telemetry.ts.
          name: 'unit-telemetry-ingest',
          topicFilter: UNIT_TELEMETRY_TOPIC_FILTER,
          target: toIngestStream,
        },
        {
          name: 'device-reply',
          topicFilter: 'dts/+/cmd/reply',
          target: ({ topic, payload }) => deviceReply({ ...(JSON.parse(payload.toString('utf8')) as object), thing: topic.split('/')[1] }),
        },
      ],
      (rule, topic, err) => log.error('rule failed', { rule, topic, err }),
      {
        port: ports.mqttTls,
        ...(() => {
          const server = ca.issueServer();
          return { keyPem: server.keyPem, certPem: server.certPem };
        })(),
        caPem: ca.caPem,
        // A certificate the registry holds, active, with the device policy, attached to a thing.
        thingOf: (pem) => {
          const cert = iot.certificateByPem(pem);
          if (!cert?.policies.includes(LOCAL_DEVICE_POLICY)) return undefined;
          return iot.thingOfCertificate(cert.certificateArn)?.thingName;
        },
      },
    );
    closers.push(() => mqtt.close());

    // The demo farms' devices: 48 hours of history on the first start, then live, one reading a
    // minute per vat; the state file makes a restart continue each series where it stopped.
    let simulator: SimulatorHandle | undefined;
    if (options.simulator) {
      // The live demo reports its dairy-company farms to the gateway stand-in (sync on), so the
      // farmer's event log and calibration have something to show. Tests switch it on themselves.
      for (const f of DEMO_FARMS.filter((x) => isDairyCompanyFarm(x.fonterra_id))) {
        const stored = await farms.getFarm(f._id);
        if (stored && !stored.fonterra_api_status) await farms.putFarm({ ...stored, fonterra_api_status: true });
      }
      simulator = await startSimulator({
        mqttUrl: mqtt.url,
        farms: simFarmsFrom(DEMO_FARMS, DEMO_DEVICES, DEMO_KNODE, DEMO_UNIT_IMEIS),
        stateFile: join(DATA, 'simulator', 'state.json'),
        backfillHours: 48,
        randomFaults: true,
        controlPort: ports.simulator,
        log: (line) => log.info(line, { component: 'simulator' }),
        // The tanker's meter: each pickup of a dairy-company farm's vat becomes a docket at the gateway.
        onPickup: ({ device, at, litres, temperature }) => {
          const d = DEMO_DEVICES.find((x) => x.name === device);
          const farm = DEMO_FARMS.find((f) => f._id === d?.farm_id);
          if (!d || !farm || !isDairyCompanyFarm(farm.fonterra_id)) return;
          dairyGateway.tanker({ supplierId: farm.fonterra_id, vatId: d.vat_number, at: new Date(at).toISOString(), litres, temperature: temperature ?? 4 });
        },
      });
      closers.push(() => simulator?.stop());
    }

    // EventBridge stand-in. dynalite has no TTL, so expired items are swept like AWS would: a
    // bounded page of each table a minute, not a scan of every table.
    const sweepExpiredPage = expirySweeper(ddb, TABLE_PREFIX);
    const scheduler = startScheduler(
      [{ name: 'ttl-sweep', everyMs: 60_000, invoke: () => sweepExpiredPage(Math.floor(Date.now() / 1000)) }],
      (name, err) => log.error('scheduled target failed', { name, err }),
    );
    closers.push(() => scheduler.stop());

    // Alerts (issue 6): the sweep for time-based alert types and pending deliveries, every minute
    // like its EventBridge schedule in AWS; and where controller settings are published (IoT's
    // data plane in AWS, this broker here).
    process.env.MQTT_URL = mqtt.url;
    const alertSweepUrl = new URL(`../lambdas/alerts/sweep-handler.ts?stack=${stackId}`, import.meta.url);
    const alertSweep = ((await import(alertSweepUrl.href)) as { handler: () => Promise<unknown> }).handler;
    const alertScheduler = startScheduler([{ name: 'alert-sweep', everyMs: 60_000, invoke: () => alertSweep() }], (name, err) =>
      log.error('scheduled target failed', { name, err }),
    );
    closers.push(() => alertScheduler.stop());

    // The dairy-company link (issue 21): events out, dockets in, every minute like its EventBridge schedule.
    if (options.dairySync ?? true) {
      const dairySyncUrl = new URL(`../lambdas/dairy/sync-handler.ts?stack=${stackId}`, import.meta.url);
      const dairySync = ((await import(dairySyncUrl.href)) as { handler: () => Promise<unknown> }).handler;
      const dairyScheduler = startScheduler([{ name: 'dairy-sync', everyMs: 60_000, invoke: () => dairySync() }], (name, err) =>
        log.error('scheduled target failed', { name, err }),
      );
      closers.push(() => dairyScheduler.stop());
    }

    // The install reconciler: stuck New Install and reissue runs finished or undone, on a timer like
    // its EventBridge schedule (every minute here, so a stuck run is seen to be repaired).
    const reconcilerUrl = new URL(`../lambdas/installer/reconcile-handler.ts?stack=${stackId}`, import.meta.url);
    const reconcileInstalls = ((await import(reconcilerUrl.href)) as { handler: () => Promise<unknown> }).handler;
    const reconcilerScheduler = startScheduler([{ name: 'install-reconciler', everyMs: 60_000, invoke: () => reconcileInstalls() }], (name, err) => log.error('scheduled target failed', { name, err }));
    closers.push(() => reconcilerScheduler.stop());

    // Watchman (issue 22): hourly like its EventBridge schedule; `npm run watchman` runs it once.
    if (options.watchman ?? true) {
      const watchmanUrl = new URL(`../lambdas/watchman/handler.ts?stack=${stackId}`, import.meta.url);
      const watchman = ((await import(watchmanUrl.href)) as { handler: () => Promise<unknown> }).handler;
      const everyMs = Number(process.env.WATCHMAN_EVERY_MINUTES ?? 60) * 60_000;
      const watchmanScheduler = startScheduler([{ name: 'watchman', everyMs, invoke: () => watchman() }], (name, err) => log.error('scheduled target failed', { name, err }));
      closers.push(() => watchmanScheduler.stop());
      // Once the simulator's 48 hours are in, a run at once: its page, its cases and the fleet
      // overview then show the demo's faults on a fresh start, not after the first hour.
      void simulator?.caughtUp
        .then(() => watchman())
        .then(() => log.info('Watchman ran on the caught-up demo data'))
        .catch((err: unknown) => log.error('Watchman run after the catch-up failed', { err }));
    }

    // The app calls the API on its own origin (`/api/*`, as the web distribution's API behaviour
    // in AWS): no second host to connect to and no CORS preflight before each call.
    const hosting = await startWebHosting(ports.web, options.distDir ?? join(ROOT, 'frontend', 'dist'), {
      apiUrl: web,
      liveUrl: live.url,
      region: cognito.region,
      userPoolId: cognito.userPoolId,
      userPoolClientId: cognito.clientId,
      cognitoEndpoint: cognito.endpoint,
      supportUrl: contacts.supportUrl,
      supportPhones: contacts.supportPhones,
      herdSiteUrl: contacts.herdSiteUrl,
      vapidPublicKey: vapid.publicKey,
    }, api.url);
    closers.push(closeServer(hosting.server));

    const facts: LocalFacts = {
      web,
      api: api.url,
      live: live.url,
      mqtt: mqtt.url,
      mqttTls: mqtt.tlsUrl ?? '',
      sns: `${sns.endpoint}/messages`,
      dairyGateway: dairyGateway.url,
      push: pushService.origin,
      ...(simulator?.controlUrl ? { simulator: { control: simulator.controlUrl } } : {}),
      dynamodb: {
        endpoint: dynamo.endpoint,
        farmsTable: tableEnv.FARMS_TABLE as string,
        readingsTable: tableEnv.READINGS_TABLE as string,
        alertsTable: tableEnv.ALERTS_TABLE as string,
      },
      cognito: { endpoint: cognito.endpoint, userPoolId: cognito.userPoolId, clientId: cognito.clientId, region: cognito.region },
      accounts: DEMO_ACCOUNTS.map((a) => ({ role: a.role, email: a.email, password: DEMO_PASSWORD, ...(totpSecrets[a.email] ? { totpSecret: totpSecrets[a.email] } : {}) })),
      farms: DEMO_FARMS.map((f) => ({
        fonterra_id: f.fonterra_id,
        package: f.package,
        // A farm's unit publishes its vats on dts/<unit>/<vat>/telemetry; a farm without one on the deprecated per-vat topic.
        vats: DEMO_DEVICES.filter((d) => d.farm_id === f._id).map((d) => {
          const imei = DEMO_UNIT_IMEIS[f._id];
          return { vat_number: d.vat_number, device_id: d._id, topic: imei ? unitTelemetryTopic(unitThingName(imei), d.vat_number) : telemetryTopic(d.name) };
        }),
      })),
    };
    writeFileSync(join(DATA, 'local.json'), `${JSON.stringify(facts, null, 2)}\n`);

    const stop = async () => {
      for (const close of closers.reverse()) await Promise.resolve(close()).catch(() => undefined);
    };
    /** Resolves when the ingest stream has handed on every record and its consumers are idle (tests). */
    const ingestDrained = () => ingestStream.drained();
    /** The DynamoDB stand-in's fault switches (tests). */
    const dynamoFaults = { failWritesTo: dynamo.failWritesTo, throttleWrites: dynamo.throttleWrites };
    return { facts, stop, ingestDrained, dairyGateway, rotateDairyToken, ssm, dairyTokenParameter: DAIRY_TOKEN_PARAMETER, iot, sns, pushService, dynamoFaults };
  } catch (err) {
    for (const close of closers.reverse()) await Promise.resolve(close()).catch(() => undefined);
    throw err;
  }
};

const banner = (f: LocalFacts) =>
  [
    '',
    '  Vat-Man is running locally.',
    '',
    `  Web app   ${f.web}`,
    `  API       ${f.api}`,
    `  MQTT      ${f.mqtt}   (units publish to dts/<unit>/<vat>/telemetry; the per-vat dts/<thing>/telemetry is deprecated)`,
    `  MQTT TLS  ${f.mqttTls}   (mutual TLS: a unit's certificate and key from New Install, CA .data/iot/ca/ca-cert.pem)`,
    `  Outbox    ${f.sns}   (every SMS and email sent)`,
    `  Dairy co. ${f.dairyGateway}   (the dairy company's gateway: events received, dockets)`,
    `  Cognito   ${f.cognito.endpoint}   pool ${f.cognito.userPoolId}`,
    ...(f.simulator
      ? [`  Devices   simulated for the demo farms; faults: curl -X POST ${f.simulator.control}/faults -d '{"device":"vm-31245-1","kind":"chiller_off","minutes":240}'`]
      : ['  Devices   simulator off (SIMULATOR=off)']),
    '',
    '  Demo sign-ins (password for all: ' + DEMO_PASSWORD + ')',
    ...f.accounts.map((a) => `    ${a.role.padEnd(18)} ${a.email}${a.totpSecret ? `   authenticator secret ${a.totpSecret}` : ''}`),
    '  (operators answer the sign-in code step from an authenticator app holding their secret)',
    '',
    '  Facts as JSON: .data/local.json      Stop: Ctrl-C',
    '',
  ].join('\n');

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  startLocalStack({ simulator: process.env.SIMULATOR !== 'off' })
    .then(({ facts, stop }) => {
      console.log(banner(facts));
      let stopping = false;
      const shutdown = (signal: string) => {
        if (stopping) return;
        stopping = true;
        console.log(`\n  ${signal}: stopping the local stack…`);
        // A part that will not stop must not keep the ports: give up waiting after 10 s.
        setTimeout(() => {
          console.error('  Some parts did not stop within 10 s; exiting anyway.');
          process.exit(1);
        }, 10_000).unref();
        stop().then(() => process.exit(0), () => process.exit(1));
      };
      process.on('SIGINT', () => shutdown('SIGINT'));
      process.on('SIGTERM', () => shutdown('SIGTERM'));
    })
    .catch((err: unknown) => {
      if (err instanceof PortError) console.error(`\n  Cannot start: ${err.message}\n`);
      else console.error('\n  The local stack failed to start:', err instanceof Error ? err.message : err, '\n');
      process.exit(1);
    });
}
