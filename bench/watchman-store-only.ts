/** `npx tsx bench/watchman-store-only.ts`: Watchman on dynalite (bench/watchman-store.ts) on a local stack of its own; WATCHMAN_STORE_FARMS=1000,2000,5000 sets the sizes. */
import '../local/quiet-warnings';
import { startTestStack } from '../test/support/local-stack';
import { benchWatchmanStore } from './watchman-store';

const stack = await startTestStack(undefined, undefined, { dairySync: false, watchman: false });
try {
  await benchWatchmanStore(stack.facts);
} finally {
  await stack.stop();
}
