/** Runs only the dashboard-range benchmark (`npx tsx bench/dashboard-range-only.ts`). */
import '../local/quiet-warnings';
import { startTestStack } from '../test/support/local-stack';
import { benchDashboardRange } from './dashboard-range';

const stack = await startTestStack();
try {
  await benchDashboardRange(stack.facts, stack.post, await stack.signIn('farmer@vatman.local'));
} finally {
  await stack.stop();
}
