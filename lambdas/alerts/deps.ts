import { createDocumentClient } from '../adapters/dynamodb/client';
import { dynamoAlertSettingsRepository } from '../adapters/dynamodb/alert-settings-repository';
import { dynamoAlertsRepository } from '../adapters/dynamodb/alerts-repository';
import { dynamoFarmRepository } from '../adapters/dynamodb/farms-repository';
import { dynamoMilkingWindowsRepository } from '../adapters/dynamodb/milking-windows-repository';
import { dynamoPickupRepository } from '../adapters/dynamodb/pickups-repository';
import { alertEmailTopicsFromEnv, createSnsClient, snsAlertSender } from '../adapters/sns/alert-sender';
import type { AlertSender } from '../ports/alert-email';
import { requireEnv } from '../lib/env';
import type { Logger } from '../lib/logger';
import { makeNotifier, type Notifier } from './notifier';
import { makeAlertProcessor, type AlertProcessor } from './processor';

/** The repositories both need. */
const repositoriesFromEnv = (env: NodeJS.ProcessEnv) => {
  const doc = createDocumentClient(env);
  return {
    doc,
    farms: dynamoFarmRepository(doc, requireEnv('FARMS_TABLE', env)),
    alerts: dynamoAlertsRepository(doc, requireEnv('ALERTS_TABLE', env)),
    settings: dynamoAlertSettingsRepository(doc, requireEnv('FARMS_TABLE', env)),
  };
};

/** The notifier (the delivery queue) over real adapters. */
export const alertNotifierFromEnv = (
  log: Logger,
  env: NodeJS.ProcessEnv = process.env,
  givenSender?: AlertSender,
  now: () => Date = () => new Date(),
): Notifier => {
  const { farms, alerts, settings } = repositoriesFromEnv(env);
  const sender = givenSender ?? snsAlertSender(alertEmailTopicsFromEnv(settings, env, createSnsClient(env), now));
  return makeNotifier({ farms, settings, alerts, sender, now, log });
};

/** The engine runner and notifier over real adapters (ingest hook and sweep Lambda). */
export const alertProcessorFromEnv = (
  log: Logger,
  env: NodeJS.ProcessEnv = process.env,
  givenSender?: AlertSender,
  now: () => Date = () => new Date(),
): AlertProcessor => {
  const { doc, farms, alerts, settings } = repositoriesFromEnv(env);
  const notifier = alertNotifierFromEnv(log, env, givenSender, now);
  const milkingWindows = dynamoMilkingWindowsRepository(doc, requireEnv('FARMS_TABLE', env));
  const pickups = dynamoPickupRepository(doc, requireEnv('FARMS_TABLE', env));
  return makeAlertProcessor({ farms, settings, milkingWindows, pickups, alerts, notifier, now, log });
};
