import { LIVE_PORTS } from '../ports/function-ports';
import { envAtImport, lazyHandler } from '../lib/lazy-handler';
import { createLogger } from '../lib/logger';

const env = envAtImport();

/** The live-updates WebSocket API's function ($connect, $disconnect, subscribe: cdk/lib/constructs/live.ts), loaded on first use. */
export const handler = lazyHandler(async () => {
  const [{ portsFromEnv }, { makeLiveHandler }, { observe }] = await Promise.all([import('../composition/ports-from-env'), import('./live'), import('../lib/observe')]);
  const log = createLogger({ function: 'live' });
  const ports = portsFromEnv(env);
  await ports.load(LIVE_PORTS);
  return observe(
    log,
    makeLiveHandler({
    get verifier() {
      return ports.verifier;
    },
    get authority() {
      return ports.liveAuthority;
    },
    get connections() {
      return ports.connections;
    },
    get farms() {
      return ports.farms;
    },
    get sender() {
      return ports.liveSender;
    },
    now: () => new Date(),
    log,
    ...(env.ORIGIN_VERIFY ? { originSecret: env.ORIGIN_VERIFY } : {}),
  }),
  );
});
