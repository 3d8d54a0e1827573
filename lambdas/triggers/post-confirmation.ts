import { createDocumentClient } from '../adapters/dynamodb/client';
import { dynamoAlertSettingsRepository } from '../adapters/dynamodb/alert-settings-repository';
import { alertEmailTopicsFromEnv } from '../adapters/sns/alert-sender';
import { requireEnv } from '../lib/env';
import { createLogger } from '../lib/logger';
import { alertEmailRouteOnConfirmation } from './alert-email-route';

/** Cognito PostConfirmation trigger entry: the new user's alert-email route (SNS topic and subscription). */
const routes = dynamoAlertSettingsRepository(createDocumentClient(), requireEnv('FARMS_TABLE'));
export const handler = alertEmailRouteOnConfirmation(alertEmailTopicsFromEnv(routes), createLogger({ function: 'post-confirmation' }));
