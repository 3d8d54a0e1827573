import { createLogger } from '../lib/logger';
import { lazyPorts } from '../lib/ports';
import { makeLiveHandler } from './live';

/** The live-updates WebSocket API's function ($connect, $disconnect, subscribe): cdk/lib/constructs/live.ts. */
const ports = lazyPorts();
export const handler = makeLiveHandler({
  get verifier() {
    return ports.verifier;
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
  log: createLogger({ function: 'live' }),
});
