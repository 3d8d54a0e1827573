import { requireEnv } from '../lib/env';
import { envAtImport, lazyHandler } from '../lib/lazy-handler';
import { createLogger } from '../lib/logger';

const env = envAtImport();

/** Cognito PostConfirmation trigger entry: the new user's alert-email route (SNS topic and subscription), its modules loaded on first use. */
export const handler = lazyHandler(async () => {
  const [{ createDocumentClient }, { dynamoAlertSettingsRepository }, { alertEmailTopicsFromEnv }, { alertEmailRouteOnConfirmation }] = await Promise.all([
    import('../adapters/dynamodb/client'),
    import('../adapters/dynamodb/alert-settings-repository'),
    import('../adapters/sns/alert-sender'),
    import('./alert-email-route'),
  ]);
  const routes = dynamoAlertSettingsRepository(createDocumentClient(env), requireEnv('FARMS_TABLE', env));
  return alertEmailRouteOnConfirmation(alertEmailTopicsFromEnv(routes, env), createLogger({ function: 'post-confirmation' }));
});
