import { createDocumentClient } from '../adapters/dynamodb/client';
import { dynamoAlertSettingsRepository, type AlertSettingsRepository } from '../adapters/dynamodb/alert-settings-repository';
import { dynamoAlertsRepository, type AlertsRepository } from '../adapters/dynamodb/alerts-repository';
import { dynamoFarmRepository, type FarmRepository } from '../adapters/dynamodb/farms-repository';
import { dynamoReadingsRepository, type ReadingsRepository } from '../adapters/dynamodb/readings-repository';
import { deviceCommandsFromEnv, type DeviceCommands } from '../adapters/iot/device-commands';
import { alertEmailTopicsFromEnv, createSnsClient, snsAlertSender, type AlertSender } from '../adapters/sns/alert-sender';
import { requireEnv } from '../lib/env';
import type { Logger } from '../lib/logger';
import { tokenVerifierFromEnv, type TokenVerifier } from '../lib/token-verifier';
import { makeNotifier } from './notifier';
import { makeAlertProcessor, type AlertProcessor } from './processor';

/**
 * The ports of the alerts issue (notification and setting endpoints, the ingest's hook, the
 * sweep). Kept beside the shared Deps rather than in it, so endpoints that never touch alerts
 * do not need the alert topic's configuration at cold start.
 */
export interface AlertDeps {
  readonly farms: FarmRepository;
  readonly readings: ReadingsRepository;
  readonly alerts: AlertsRepository;
  readonly alertSettings: AlertSettingsRepository;
  readonly devices: DeviceCommands;
  readonly verifier: TokenVerifier;
  readonly now: () => Date;
}

export const alertDepsFromEnv = (env: NodeJS.ProcessEnv = process.env): AlertDeps => {
  const doc = createDocumentClient(env);
  return {
    farms: dynamoFarmRepository(doc, requireEnv('FARMS_TABLE', env)),
    readings: dynamoReadingsRepository(doc, requireEnv('READINGS_TABLE', env)),
    alerts: dynamoAlertsRepository(doc, requireEnv('ALERTS_TABLE', env)),
    alertSettings: dynamoAlertSettingsRepository(doc, requireEnv('FARMS_TABLE', env)),
    devices: deviceCommandsFromEnv(env),
    verifier: tokenVerifierFromEnv(env),
    now: () => new Date(),
  };
};

/** The engine runner and notifier over real adapters (ingest hook and sweep Lambda). */
export const alertProcessorFromEnv = (
  log: Logger,
  env: NodeJS.ProcessEnv = process.env,
  givenSender?: AlertSender,
  now: () => Date = () => new Date(),
): AlertProcessor => {
  const doc = createDocumentClient(env);
  const farms = dynamoFarmRepository(doc, requireEnv('FARMS_TABLE', env));
  const alerts = dynamoAlertsRepository(doc, requireEnv('ALERTS_TABLE', env));
  const settings = dynamoAlertSettingsRepository(doc, requireEnv('FARMS_TABLE', env));
  const sns = createSnsClient(env);
  const sender = givenSender ?? snsAlertSender(sns, alertEmailTopicsFromEnv(settings, env, sns));
  const notifier = makeNotifier({ farms, settings, alerts, sender, now, log });
  return makeAlertProcessor({ farms, settings, alerts, notifier, now, log });
};
