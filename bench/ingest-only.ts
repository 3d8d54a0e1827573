/** `npx tsx bench/ingest-only.ts`: the ingest benchmark alone (bench/ingest.ts), on a fresh local stack. */
import '../local/quiet-warnings';
import { startTestStack } from '../test/support/local-stack';
import { benchIngest } from './ingest';

const stack = await startTestStack();
try {
  await benchIngest(stack.facts, stack.ingestDrained);
} finally {
  await stack.stop();
}
