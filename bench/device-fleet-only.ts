/** Runs only the device fleet benchmark (`npx tsx bench/device-fleet-only.ts`). */
import '../local/quiet-warnings';
import { startTestStack } from '../test/support/local-stack';
import { benchDeviceFleet } from './device-fleet';

const stack = await startTestStack();
try {
  await benchDeviceFleet(stack.facts, stack.post, await stack.signIn('admin@vatman.local'));
} finally {
  await stack.stop();
}
