import { createServer, type Server } from 'node:net';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import { Aedes, type Client } from 'aedes';
import { devicePublishTopics } from '../../shared/telemetry/device-message';

/**
 * An IoT topic rule as the local stack runs it: messages on topics matching `topicFilter`
 * (MQTT wildcards + and #) are handed to `target`, like IoT Core's Lambda action.
 */
interface TopicRule {
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
/**
 * The mutual-TLS port, as IoT Core's 8883: a client presents a certificate issued by the CA; the
 * certificate must be one the registry holds, ACTIVE, with the device policy attached and
 * attached to a thing, and the client id must be that thing's name. The device policy
 * (cdk/lib/constructs/telemetry.ts) is then applied: publish only to the thing's own telemetry,
 * knode and cmd/reply topics, subscribe only to its own cmd topics. A refused publish or
 * subscribe closes the connection, as IoT Core does. A certificate deactivated (revoked) or
 * detached is refused at connect, and a client still connected with it at its next publish or
 * subscribe.
 */
interface MutualTls {
  readonly port: number;
  readonly keyPem: string;
  readonly certPem: string;
  readonly caPem: string;
  /** The thing a presented certificate (PEM) may connect as, or undefined. */
  readonly thingOf: (certificatePem: string) => string | undefined;
}

const derToPem = (der: Buffer) => `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END CERTIFICATE-----\n`;

/** The device policy's topics for a thing (cdk/lib/constructs/telemetry.ts DevicePolicy). */
const devicePolicy = (thing: string) => ({
  publish: devicePublishTopics(thing),
  subscribe: (filter: string) => filter.startsWith(`dts/${thing}/cmd/`) && !filter.slice(`dts/${thing}/cmd/`.length).includes('#'),
});

export const startMqttBroker = async (
  port: number,
  rules: readonly TopicRule[],
  onRuleError: (rule: string, topic: string, err: unknown) => void,
  mutualTls?: MutualTls,
): Promise<{ server: Server; broker: Aedes; url: string; tlsUrl?: string; close: () => Promise<void> }> => {
  const broker = await Aedes.createBroker();
  /** The thing each mutual-TLS client connected as (plain-port clients are not in it), and the certificate it presented. */
  const things = new WeakMap<Client, string>();
  const presented = new WeakMap<Client, string>();
  /** Still allowed: a certificate deactivated since the client connected loses it at its next publish or subscribe. */
  const stillValid = (client: Client, thing: string | undefined) => thing !== undefined && mutualTls?.thingOf(presented.get(client) ?? '') === thing;
  const tlsSockets = new WeakSet<object>();
  broker.authenticate = (client, _username, _password, done) => {
    if (!tlsSockets.has(client.conn)) return done(null, true);
    const peer = (client.conn as unknown as TLSSocket).getPeerCertificate();
    const thing = peer?.raw ? mutualTls?.thingOf(derToPem(peer.raw)) : undefined;
    if (!thing || client.id !== thing) {
      const err = Object.assign(new Error(thing ? `client id must be ${thing}` : 'certificate not registered, inactive, or without policy and thing'), { returnCode: 5 as const });
      return done(err, false);
    }
    things.set(client, thing);
    presented.set(client, derToPem(peer.raw));
    done(null, true);
  };
  broker.authorizePublish = (client, packet, callback) => {
    const thing = client ? things.get(client) : undefined;
    if (client && tlsSockets.has(client.conn) && (!stillValid(client, thing) || !devicePolicy(thing as string).publish.includes(packet.topic))) return callback(new Error(`${thing ?? 'client'} may not publish to ${packet.topic}`));
    callback(null);
  };
  broker.authorizeSubscribe = (client, sub, callback) => {
    const thing = client ? things.get(client) : undefined;
    if (client && tlsSockets.has(client.conn) && (!stillValid(client, thing) || !devicePolicy(thing as string).subscribe(sub.topic))) return callback(new Error(`${thing ?? 'client'} may not subscribe to ${sub.topic}`));
    callback(null, sub);
  };
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
  const tlsServer = mutualTls
    ? createTlsServer({ key: mutualTls.keyPem, cert: mutualTls.certPem, ca: [mutualTls.caPem], requestCert: true, rejectUnauthorized: true }, (socket) => {
        tlsSockets.add(socket);
        broker.handle(socket);
      })
    : undefined;
  if (tlsServer && mutualTls) {
    await new Promise<void>((resolve, reject) => {
      tlsServer.once('error', reject);
      tlsServer.listen(mutualTls.port, '127.0.0.1', () => resolve());
    });
  }
  return {
    server,
    broker,
    url: `mqtt://127.0.0.1:${port}`,
    ...(mutualTls ? { tlsUrl: `mqtts://localhost:${mutualTls.port}` } : {}),
    close: () =>
      new Promise<void>((resolve) => {
        tlsServer?.close();
        server.close(() => broker.close(() => resolve()));
      }),
  };
};
