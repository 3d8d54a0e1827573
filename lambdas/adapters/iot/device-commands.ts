import { IoTDataPlaneClient, PublishCommand } from '@aws-sdk/client-iot-data-plane';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { createDocumentClient } from '../dynamodb/client';
import { optionalEnv, requireEnv } from '../../lib/env';
import { settingsCommandTopic } from '../../../shared/telemetry/device-message';
import { UNIT_CHECK_TIMEOUT_MS, unitCheckTopic } from '../../../shared/installer/unit-check';
import type { DeviceAnswer, DeviceCommands, UnitChecks } from '../../ports/iot';
import { instrumented } from '../aws-client';

/**
 * Commands to a vat device (controller settings). The protocol:
 *  - the platform publishes `{ request_id, settings }` to `dts/<thing>/cmd/settings` (QoS 1; the
 *    device policy lets a device subscribe to its own dts/<thing>/cmd/*);
 *  - the device applies them and publishes `{ request_id, return_value }` to
 *    `dts/<thing>/cmd/reply` (the policy lets it publish there and nowhere else under cmd/);
 *  - a topic rule on `dts/+/cmd/reply` hands the reply to the device-reply function, which stores
 *    it under the request id; the API call waits for that item for a few seconds.
 * Three topic levels below dts/<thing> keep replies out of the telemetry rule (`dts/+/+`).
 */

/** How the platform publishes to a device: IoT Core's data plane in AWS, MQTT to the local broker. */
interface CommandPublisher {
  publish(topic: string, payload: string): Promise<void>;
}

const REPLY_MAX = 2_000;

/** Replies are kept under their request id (Alerts table, one-day expiry). */
const replyKey = (requestId: string) => ({ pk: `CMD#${requestId}`, sk: 'REPLY' });

export const storeDeviceReply = async (doc: DynamoDBDocumentClient, table: string, thing: string, payload: unknown): Promise<boolean> => {
  const p = payload as { request_id?: unknown; return_value?: unknown } | null;
  if (!p || typeof p.request_id !== 'string' || p.request_id.length > 100) return false;
  const answer = typeof p.return_value === 'string' ? p.return_value : JSON.stringify(p.return_value ?? null);
  // A unit's status (its sensor boards) is longer than a settings answer; a reply is kept whole or not at all.
  if (answer.length > REPLY_MAX) return false;
  await doc.send(
    new PutCommand({
      TableName: table,
      Item: { ...replyKey(p.request_id), kind: 'CMD_REPLY', thing, return_value: answer, expires_at: Math.floor(Date.now() / 1000) + 86_400 },
    }),
  );
  return true;
};

interface ExchangeOptions {
  publisher: CommandPublisher;
  doc: DynamoDBDocumentClient;
  table: string;
  timeoutMs?: number;
  pollMs?: number;
}

/**
 * One command and its answer: publish `{ request_id, ...body }` on the thing's command topic, then
 * wait (bounded) for the reply stored under the request id. Only the commanded thing's own reply
 * counts (the reply rule records which thing's topic it came on).
 */
const exchange = async (o: ExchangeOptions, thing: string, topic: string, body: Record<string, unknown>, timeoutMs: number): Promise<DeviceAnswer> => {
  const requestId = randomUUID();
  await o.publisher.publish(topic, JSON.stringify({ request_id: requestId, ...body }));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, o.pollMs ?? 200));
    const item = (await o.doc.send(new GetCommand({ TableName: o.table, Key: replyKey(requestId), ConsistentRead: true }))).Item;
    if (item && item.thing === thing) return { answered: true, return_value: String(item.return_value) };
  }
  return { answered: false };
};

const makeDeviceCommands = (o: ExchangeOptions): DeviceCommands => ({
  sendSettings: (target, settings) =>
    'unit' in target
      ? exchange(o, target.unit, settingsCommandTopic(target.unit), { vat: target.vat, settings }, o.timeoutMs ?? 5_000)
      : exchange(o, target.thing, settingsCommandTopic(target.thing), { settings }, o.timeoutMs ?? 5_000),
});

const makeUnitChecks = (o: ExchangeOptions): UnitChecks => ({
  check: (unit, check) => exchange(o, unit, unitCheckTopic(unit), { check }, o.timeoutMs ?? UNIT_CHECK_TIMEOUT_MS),
});

const iotPublisher = (client: IoTDataPlaneClient): CommandPublisher => ({
  async publish(topic, payload) {
    await client.send(new PublishCommand({ topic, qos: 1, payload: new TextEncoder().encode(payload) }));
  },
});

/**
 * Locally there is no IoT data plane: the same message goes to the aedes broker over MQTT. The
 * client is imported here only: the Lambda bundles leave mqtt out (HANDLER_BUNDLING in
 * cdk/lib/constructs/vat-man-function.ts), as AWS never sets MQTT_URL.
 */
const mqttPublisher = (url: string): CommandPublisher => ({
  async publish(topic, payload) {
    const { default: mqtt } = await import('mqtt');
    const client = await mqtt.connectAsync(url, { clientId: `vatman-cmd-${randomUUID().slice(0, 8)}`, reconnectPeriod: 0 });
    try {
      await client.publishAsync(topic, payload, { qos: 1 });
    } finally {
      await client.endAsync();
    }
  },
});

/** IOT_DATA_ENDPOINT in AWS (the account's ATS data endpoint); MQTT_URL where the broker is aedes. */
const exchangeFromEnv = (env: NodeJS.ProcessEnv): ExchangeOptions => {
  const mqttUrl = optionalEnv('MQTT_URL', env);
  const iotEndpoint = optionalEnv('IOT_DATA_ENDPOINT', env);
  const publisher: CommandPublisher = mqttUrl
    ? mqttPublisher(mqttUrl)
    : iotPublisher(instrumented(new IoTDataPlaneClient({ ...(iotEndpoint ? { endpoint: iotEndpoint } : {}), region: optionalEnv('AWS_REGION', env) ?? 'us-east-1' })));
  return { publisher, doc: createDocumentClient(env), table: requireEnv('ALERTS_TABLE', env) };
};
export const deviceCommandsFromEnv = (env: NodeJS.ProcessEnv = process.env): DeviceCommands => makeDeviceCommands(exchangeFromEnv(env));
export const unitChecksFromEnv = (env: NodeJS.ProcessEnv = process.env): UnitChecks => makeUnitChecks(exchangeFromEnv(env));
