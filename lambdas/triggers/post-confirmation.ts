import { POST_CONFIRMATION_PORTS } from '../ports/function-ports';
import { envAtImport, lazyHandler } from '../lib/lazy-handler';
import { createLogger } from '../lib/logger';

const env = envAtImport();

/** Cognito PostConfirmation trigger entry: the new user's alert-email route (SNS topic and subscription), its modules loaded on first use. */
export const handler = lazyHandler(async () => {
  const [{ portsFromEnv }, { alertEmailRouteOnConfirmation }, { observe }] = await Promise.all([import('../composition/ports-from-env'), import('./alert-email-route'), import('../lib/observe')]);
  const ports = portsFromEnv(env);
  await ports.load(POST_CONFIRMATION_PORTS);
  const log = createLogger({ function: 'post-confirmation' });
  return observe(log, alertEmailRouteOnConfirmation(ports.alertTopics, log));
});
