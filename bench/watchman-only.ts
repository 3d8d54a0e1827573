/** `npx tsx bench/watchman-only.ts`: the Watchman benchmark alone (bench/watchman.ts); it needs no local stack. */
import '../local/quiet-warnings';
import { benchWatchman } from './watchman';

await benchWatchman();
