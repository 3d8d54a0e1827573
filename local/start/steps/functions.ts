import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KinesisStreamBatchResponse } from 'aws-lambda';
import { INGEST_FUNCTION, INGEST_STREAM } from '../../../lambdas/ports/function-settings';
import { createLogger } from '../../../lambdas/lib/logger';
import { createTokenVerifier } from '../../../lambdas/lib/token-verifier';
import { DEVICE_TOPIC_FILTER, UNIT_TELEMETRY_TOPIC_FILTER } from '../../../shared/telemetry/device-message';
import { deadLetterLines, onFailureRecord } from '../../replay-dlq';
import { startApiGateway, type ApiLambda } from '../../stand-ins/api-gateway';
import type { CognitoStandIn } from '../../stand-ins/cognito';
import type { IotControlPlane } from '../../stand-ins/iot-control';
import { startKinesisStream } from '../../stand-ins/kinesis-stream';
import { startLambdaPool } from '../../stand-ins/lambda-pool';
import type { localCa } from '../../stand-ins/local-ca';
import { startMqttBroker } from '../../stand-ins/mqtt-broker';
import type { Closers } from '../closers';
import { importFunction, INGEST_DEAD_LETTER_QUEUE, LOCAL_DEVICE_POLICY, type LocalConfig } from '../config';
import type { startSqs } from '../../stand-ins/sqs';

type SqsStandIn = Awaited<ReturnType<typeof startSqs>>;
import { setFunctionEnv } from '../function-env';

const log = createLogger({ service: 'local-stack' });

/** API Gateway with the Cognito authorizer; each endpoint's function loads on its first call. */
export const startApi = async (config: LocalConfig, closers: Closers, cognito: CognitoStandIn) => {
  const verifier = createTokenVerifier({ issuer: cognito.issuer, jwksUri: `${cognito.issuer}/.well-known/jwks.json`, audience: [cognito.clientId] });
  const api = await startApiGateway({
    port: config.ports.api,
    verifier,
    loadHandler: async (endpoint) => (await importFunction<{ handler: ApiLambda }>(config, `lambdas/api/${endpoint.handler}.ts`)).handler,
    onError: (err) => log.error('gateway integration error', { err }),
    ...config.gatewayLimits,
  });
  closers.addServer(api.server);
  return api;
};

/**
 * The ingest: a Kinesis stream whose shards are consumed in "containers" (worker threads), apart
 * from the broker and the API gateway: shard i always in container i, one batch at a time, like
 * Lambda. A batch that fails after its retries goes to the on-failure destination.
 */
export const startIngest = async (config: LocalConfig, closers: Closers, sqs: SqsStandIn) => {
  const ingest = await startLambdaPool({ modulePath: new URL('../../../lambdas/ingest/handler.ts', import.meta.url).href, env: process.env, size: INGEST_STREAM.localShards, semiSpaceMb: INGEST_FUNCTION.semiSpaceMb });
  closers.add(() => ingest.stop());
  const deadLetters = join(config.dataDir, 'ingest-dead-letters.jsonl');
  const ingestStream = startKinesisStream({
    streamName: 'vatman-ingest',
    shards: INGEST_STREAM.localShards,
    batchSize: INGEST_STREAM.batchSize,
    retryAttempts: INGEST_STREAM.retryAttempts,
    consume: (shard, event) => ingest.invokeOn(shard, event) as Promise<KinesisStreamBatchResponse>,
    // The on-failure destination: as in AWS, the batch named on the dead-letter queue; the records
    // themselves, one JSON line each, for npm run replay-dlq (in AWS it reads them from the stream).
    onFailure: ({ shard, records, error }) => {
      log.error('ingest batch failed after its retries; records kept', { shard, records: records.length, file: deadLetters, err: error });
      appendFileSync(deadLetters, deadLetterLines(shard, records));
      sqs.send(INGEST_DEAD_LETTER_QUEUE, onFailureRecord(shard, records, error));
    },
  });
  closers.add(() => ingestStream.stop());
  return ingestStream;
};

type IngestStream = Awaited<ReturnType<typeof startIngest>>;

/**
 * IoT Core's broker and topic rules: every device message onto the ingest stream, keyed by thing
 * name, in the record the rule's SQL makes in AWS (cdk/lib/constructs/telemetry.ts); devices'
 * answers to commands to the device-reply function. Mutual TLS with the registry's certificates.
 */
export const startBroker = async (config: LocalConfig, closers: Closers, ingestStream: IngestStream, ca: ReturnType<typeof localCa>, iot: IotControlPlane) => {
  // The device-reply rule of cdk/lib/constructs/alert-engine.ts, `SELECT *, topic(2) AS thing FROM 'dts/+/cmd/reply'`.
  const deviceReply = (await importFunction<{ handler: (event: unknown) => Promise<void> }>(config, 'lambdas/alerts/device-reply-handler.ts')).handler;
  // The ingest rules' action: the rule event on the stream, keyed by thing name (topic level 2).
  const toIngestStream = async ({ topic, payload }: { topic: string; payload: Buffer }) =>
    ingestStream.put(topic.split('/')[1] ?? topic, Buffer.from(JSON.stringify({ payload: payload.toString('base64'), topic, received_at: Date.now() })));
  const server = ca.issueServer();
  const mqtt = await startMqttBroker(
    config.ports.mqtt,
    [
      { name: 'telemetry-ingest', topicFilter: DEVICE_TOPIC_FILTER, target: toIngestStream },
      // A unit's vats: the UnitIngestRule of cdk/lib/constructs/telemetry.ts.
      { name: 'unit-telemetry-ingest', topicFilter: UNIT_TELEMETRY_TOPIC_FILTER, target: toIngestStream },
      {
        name: 'device-reply',
        topicFilter: 'dts/+/cmd/reply',
        target: ({ topic, payload }) => deviceReply({ ...(JSON.parse(payload.toString('utf8')) as object), thing: topic.split('/')[1] }),
      },
    ],
    (rule, topic, err) => log.error('rule failed', { rule, topic, err }),
    {
      port: config.ports.mqttTls,
      keyPem: server.keyPem,
      certPem: server.certPem,
      caPem: ca.caPem,
      // A certificate the registry holds, active, with the device policy, attached to a thing.
      thingOf: (pem) => {
        const cert = iot.certificateByPem(pem);
        if (!cert?.policies.includes(LOCAL_DEVICE_POLICY)) return undefined;
        return iot.thingOfCertificate(cert.certificateArn)?.thingName;
      },
    },
  );
  closers.add(() => mqtt.close());
  // Where controller settings are published: IoT's data plane in AWS, this broker here.
  setFunctionEnv({ MQTT_URL: mqtt.url });
  return mqtt;
};
