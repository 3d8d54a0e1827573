import { INSTALL_RECONCILER_PORTS } from '../ports/function-ports';
import { envAtImport, lazyHandler } from '../lib/lazy-handler';
import { createLogger } from '../lib/logger';

const log = createLogger({ function: 'install-reconciler' });
const env = envAtImport();

/** The install reconciler (lambdas/installer/reconcile.ts), every few minutes (EventBridge in AWS, the scheduler stand-in locally). */
export const handler = lazyHandler(async () => {
  const [{ portsFromEnv }, { makeReconciler }, { observe }] = await Promise.all([import('../composition/ports-from-env'), import('./reconcile'), import('../lib/observe')]);
  const ports = portsFromEnv(env);
  await ports.load(INSTALL_RECONCILER_PORTS);
  const reconciler = makeReconciler({ installs: ports.installs, provisioning: ports.provisioning, now: ports.now, log });
  return observe(log, async () => {
    const outcome = await reconciler.run();
    if (outcome.finished || outcome.undone || outcome.left) log.info('install reconciler run', { ...outcome });
    return outcome;
  });
});
