import { botCheckFromEnv, type BotCheck } from '../adapters/bot-check/bot-check';
import { identityProviderFromEnv, type IdentityProvider } from '../adapters/cognito/identity-provider';
import { createDocumentClient } from '../adapters/dynamodb/client';
import { dynamoAlertSettingsRepository, type AlertSettingsRepository } from '../adapters/dynamodb/alert-settings-repository';
import { dynamoAlertsRepository, type AlertsRepository } from '../adapters/dynamodb/alerts-repository';
import { dynamoFarmRepository, type FarmRepository } from '../adapters/dynamodb/farms-repository';
import { dynamoPickupRepository, type PickupRepository } from '../adapters/dynamodb/pickups-repository';
import { dynamoReadingsRepository, type ReadingsRepository } from '../adapters/dynamodb/readings-repository';
import { deviceCommandsFromEnv, type DeviceCommands } from '../adapters/iot/device-commands';
import { requireEnv } from './env';
import { tokenVerifierFromEnv, type TokenVerifier } from './token-verifier';

/**
 * Every port an API action may use. An action names the ones it uses (lambdas/lib/dispatch.ts
 * `serve`), its endpoint's Lambda builds only those (below), and the stack grants each function
 * only what its ports need.
 */
export interface Ports {
  readonly farms: FarmRepository;
  readonly readings: ReadingsRepository;
  readonly alerts: AlertsRepository;
  readonly alertSettings: AlertSettingsRepository;
  readonly pickups: PickupRepository;
  readonly identity: IdentityProvider;
  readonly verifier: TokenVerifier;
  readonly botCheck: BotCheck;
  readonly devices: DeviceCommands;
  readonly now: () => Date;
}
export type PortName = keyof Ports;

/**
 * The composition root of every API Lambda: each port is built from the environment the first
 * time an action asks for it, so a function never needs the configuration (or the grants) of a
 * port it does not use, and a cold start builds nothing it will not call.
 */
export const lazyPorts = (env: NodeJS.ProcessEnv = process.env): Ports => {
  let doc: ReturnType<typeof createDocumentClient> | undefined;
  const documentClient = () => (doc ??= createDocumentClient(env));
  const builders: { [K in PortName]: () => Ports[K] } = {
    farms: () => dynamoFarmRepository(documentClient(), requireEnv('FARMS_TABLE', env)),
    readings: () => dynamoReadingsRepository(documentClient(), requireEnv('READINGS_TABLE', env)),
    alerts: () => dynamoAlertsRepository(documentClient(), requireEnv('ALERTS_TABLE', env)),
    alertSettings: () => dynamoAlertSettingsRepository(documentClient(), requireEnv('FARMS_TABLE', env)),
    pickups: () => dynamoPickupRepository(documentClient(), requireEnv('FARMS_TABLE', env)),
    identity: () => identityProviderFromEnv(env),
    verifier: () => tokenVerifierFromEnv(env),
    botCheck: () => botCheckFromEnv(env),
    devices: () => deviceCommandsFromEnv(env),
    now: () => () => new Date(),
  };
  const built: Partial<Record<PortName, unknown>> = {};
  const ports = {} as Ports;
  for (const name of Object.keys(builders) as PortName[]) {
    Object.defineProperty(ports, name, {
      enumerable: true,
      get: () => (built[name] ??= builders[name]()),
    });
  }
  return ports;
};
