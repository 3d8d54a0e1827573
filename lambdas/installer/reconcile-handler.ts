import type { PortName } from '../ports/action-ports';
import { envAtImport, lazyHandler } from '../lib/lazy-handler';
import { createLogger } from '../lib/logger';

const log = createLogger({ function: 'install-reconciler' });
const env = envAtImport();

/** What the reconciler uses: loaded at its cold start, granted by the stack (cdk/lib/constructs/install-reconciler.ts). */
export const INSTALL_RECONCILER_PORTS = ['installs', 'provisioning', 'now'] as const satisfies readonly PortName[];

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
