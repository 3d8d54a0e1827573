import { createServer, type Server } from 'node:net';
import { Aedes } from 'aedes';

/**
 * An IoT topic rule as the local stack runs it: messages on topics matching `topicFilter`
 * (MQTT wildcards + and #) are handed to `target`, like IoT Core's Lambda action.
 */
export interface TopicRule {
  readonly name: string;
  readonly topicFilter: string;
  readonly target: (message: { topic: string; payload: Buffer }) => Promise<unknown>;
}

export const topicMatches = (filter: string, topic: string): boolean => {
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i += 1) {
    if (f[i] === '#') return true;
    if (i >= t.length) return false;
    if (f[i] !== '+' && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
};

/** Retries like IoT Core's asynchronous Lambda invocation (two retries), then reports. */
const RETRIES = 2;

/**
 * IoT Core stand-in: an aedes MQTT broker and a rule runner. The broker acknowledges a QoS 1
 * message before the rule runs, as IoT Core does; the rule runs asynchronously and a failure
 * is retried, then reported (the AWS side sends it to the rule's error action).
 */
export const startMqttBroker = async (
  port: number,
  rules: readonly TopicRule[],
  onRuleError: (rule: string, topic: string, err: unknown) => void,
): Promise<{ server: Server; broker: Aedes; url: string; close: () => Promise<void> }> => {
  const broker = await Aedes.createBroker();
  broker.on('publish', (packet, client) => {
    // Only device messages run rules: the broker's own $SYS messages have no client.
    if (!client || packet.topic.startsWith('$SYS')) return;
    for (const rule of rules) {
      if (!topicMatches(rule.topicFilter, packet.topic)) continue;
      const message = { topic: packet.topic, payload: Buffer.from(packet.payload) };
      void (async () => {
        for (let attempt = 0; ; attempt += 1) {
          try {
            await rule.target(message);
            return;
          } catch (err) {
            if (attempt >= RETRIES) {
              onRuleError(rule.name, packet.topic, err);
              return;
            }
          }
        }
      })();
    }
  });
  const server = createServer(broker.handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    server,
    broker,
    url: `mqtt://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => broker.close(() => resolve()));
      }),
  };
};
