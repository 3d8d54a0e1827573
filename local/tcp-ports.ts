import { createServer } from 'node:net';

/** The local stack's TCP ports, each from an environment variable with a default. */
export const TCP_PORTS = {
  web: { env: 'WEB_PORT', fallback: 3000 },
  api: { env: 'API_PORT', fallback: 3001 },
  cognito: { env: 'COGNITO_PORT', fallback: 9229 },
  dynamodb: { env: 'DYNAMODB_PORT', fallback: 8000 },
  mqtt: { env: 'MQTT_PORT', fallback: 1883 },
  /** The broker's mutual-TLS port (units with the certificate NEW_INSTALL made, as on IoT Core's 8883). */
  mqttTls: { env: 'MQTT_TLS_PORT', fallback: 8883 },
  sns: { env: 'SNS_PORT', fallback: 3002 },
  lambda: { env: 'LAMBDA_PORT', fallback: 3003 },
  /** The device simulator's control server (POST/GET /faults). */
  simulator: { env: 'SIMULATOR_PORT', fallback: 3004 },
  /** The dairy company's telemetry gateway stand-in. */
  dairy: { env: 'DAIRY_GATEWAY_PORT', fallback: 3005 },
  /** The IoT control-plane stand-in (things, certificates, policies: the installer's provisioning). */
  iot: { env: 'IOT_PORT', fallback: 3006 },
  /** The live-updates WebSocket API and its @connections management API. */
  live: { env: 'LIVE_PORT', fallback: 3007 },
  /** SSM Parameter Store (the dairy gateway's token, read at run time as in AWS). */
  ssm: { env: 'SSM_PORT', fallback: 3008 },
  /** SQS (the ingest's dead-letter queue, counted by the fleet overview). */
  sqs: { env: 'SQS_PORT', fallback: 3009 },
  /** The Web Push service stand-in (the browsers' push service: FCM, Mozilla's autopush). */
  push: { env: 'PUSH_PORT', fallback: 3010 },
} as const;
export type TcpPortName = keyof typeof TCP_PORTS;

export const tcpPortOf = (name: TcpPortName, env: NodeJS.ProcessEnv = process.env): number => {
  const { env: key, fallback } = TCP_PORTS[name];
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new PortError(`${key}=${raw} is not a port number (1-65535).`);
  return port;
};

export class PortError extends Error {}

/** A clear message instead of EADDRINUSE's stack trace. */
export const assertPortFree = (name: TcpPortName, port: number, host = '127.0.0.1'): Promise<void> =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => {
      const { env } = TCP_PORTS[name];
      reject(
        new PortError(
          err.code === 'EADDRINUSE'
            ? `Port ${port} (${name}) is already in use. Stop whatever is using it, or choose another port: ${env}=<port> npm start`
            : `Port ${port} (${name}) cannot be used: ${err.message}`,
        ),
      );
    });
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
