/**
 * `npm start`: the whole product on embedded stand-ins for every AWS part (docs/areas/local-stack.md).
 * Data lives under .data/ and survives restarts. Each step is in local/start/steps/; they share one
 * configuration (local/start/config.ts) read from the environment once.
 */
import './quiet-warnings';
import { consoleFormatFromEnv, installConsoleSink } from './console/sink';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PortError } from './tcp-ports';
import { Closers } from './start/closers';
import { DAIRY_TOKEN_PARAMETER, INGEST_DEAD_LETTER_QUEUE, ROOT, readLocalConfig, type LocalStackOptions } from './start/config';
import { demoFacts, type LocalFacts } from './start/facts';
import { functionEnvOf, isolateFromAws, setFunctionEnv } from './start/function-env';
import { banner } from './start/steps/banner';
import { prepareDataDir, writeFacts } from './start/steps/data-dir';
import { startApi, startBroker, startIngest } from './start/steps/functions';
import { startSchedules } from './start/steps/schedules';
import { seedDemoData } from './start/steps/seed';
import { runWatchmanAfterCatchUp, startDemoDevices } from './start/steps/simulator';
import { startDairyCompany, startDatabase, startIot, startLiveGateway, startMessaging, startWebPush } from './start/steps/stand-ins';
import { startUserPool } from './start/steps/cognito';
import { startWeb } from './start/steps/web';

export type { LocalFacts } from './start/facts';
export type { LocalStackOptions } from './start/config';

export const startLocalStack = async (options: LocalStackOptions = {}) => {
  const config = readLocalConfig(options);
  await prepareDataDir(config);
  const closers = new Closers();
  try {
    isolateFromAws();
    // The stand-ins: each listens before any function loads.
    const { dynamo, ddb, tableEnv } = await startDatabase(config, closers);
    const { sns, contacts, enquiryTopic, sqs } = await startMessaging(config, closers);
    const { dairyGateway, ssm, rotateDairyToken } = await startDairyCompany(config, closers);
    const { pushService, vapid } = await startWebPush(config, closers, sns, ssm);
    const { ca, iot } = await startIot(config, closers);
    const live = await startLiveGateway(config, closers);
    const cognito = await startUserPool(config, closers, sns);
    setFunctionEnv(
      functionEnvOf(config, {
        tableEnv,
        dynamodb: dynamo.endpoint,
        cognito,
        sns: sns.endpoint,
        enquiryTopic,
        dairyGateway: dairyGateway.url,
        ssm: ssm.endpoint,
        iot: iot.endpoint,
        caPem: ca.caPem,
        liveConnections: live.endpoint,
        ingestDeadLetters: sqs.queueUrl(INGEST_DEAD_LETTER_QUEUE),
        vapidPublicKey: vapid.publicKey,
      }),
    );
    const { farms, totpSecrets } = await seedDemoData(config, tableEnv.FARMS_TABLE as string, cognito, iot);

    // The functions: the API, the ingest behind IoT Core's broker, the schedules.
    const api = await startApi(config, closers, cognito);
    const ingestStream = await startIngest(config, closers, sqs);
    const mqtt = await startBroker(config, closers, ingestStream, ca, iot);
    const simulator = await startDemoDevices(config, closers, mqtt.url, farms, dairyGateway);
    const { watchman } = await startSchedules(config, closers, ddb);
    runWatchmanAfterCatchUp(simulator, watchman);
    await startWeb(config, closers, { apiUrl: api.url, liveUrl: live.url, cognito, contacts, vapidPublicKey: vapid.publicKey });

    const facts: LocalFacts = {
      web: config.webUrl,
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
      ...demoFacts(totpSecrets),
    };
    writeFacts(config, facts);

    const stop = () => closers.closeAll();
    /** Resolves when the ingest stream has handed on every record and its consumers are idle (tests). */
    const ingestDrained = () => ingestStream.drained();
    /** The DynamoDB stand-in's fault switches (tests). */
    const dynamoFaults = { failWritesTo: dynamo.failWritesTo, throttleWrites: dynamo.throttleWrites };
    return { facts, stop, simulatorCaughtUp: simulator?.caughtUp, ingestDrained, dairyGateway, rotateDairyToken, ssm, dairyTokenParameter: DAIRY_TOKEN_PARAMETER, iot, sns, pushService, dynamoFaults };
  } catch (err) {
    await closers.closeAll();
    throw err;
  }
};

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  // VATMAN_DATA_DIR and VATMAN_WEB_DIST move the data folder and the web build (a test's own).
  installConsoleSink({ logDir: join(resolve(process.env.VATMAN_DATA_DIR || join(ROOT, '.data')), 'logs'), format: consoleFormatFromEnv() });
  startLocalStack({ simulator: process.env.SIMULATOR !== 'off', dataDir: process.env.VATMAN_DATA_DIR || undefined, distDir: process.env.VATMAN_WEB_DIST || undefined })
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
