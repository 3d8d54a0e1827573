/** Runs only the dashboard-range benchmark (`npx tsx bench/dashboard-range-only.ts`). */
import '../local/quiet-warnings';
import { startTestStack } from '../test/support/local-stack';
import { benchDashboardRange } from './dashboard-range';

// BENCH_DATA_DIR keeps dynalite's data between runs (the readings are written once).
const stack = await startTestStack(process.env.BENCH_DATA_DIR);
try {
  await benchDashboardRange(stack.facts, stack.postMeasured, await stack.signIn('farmer@vatman.local'));
} finally {
  await stack.stop();
}
