import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorContracts } from '../../shared/api/actions/operator';
import { startTestStack } from '../support/local-stack';

/**
 * `npm start`'s demo runs Watchman once when the simulator's catch-up ends (a fresh
 * start never shows an empty Watchman), on the real stand-ins: the stack started as `npm start`
 * starts it (simulator and the hourly Watchman schedule on), with a short catch-up so the test
 * is quick. The hourly schedule cannot have run yet: the run seen comes from the catch-up step.
 */
let stack: Awaited<ReturnType<typeof startTestStack>>;

beforeAll(async () => {
  delete process.env.WATCHMAN_EVERY_MINUTES;
  stack = await startTestStack(undefined, undefined, { simulator: true, simulatorBackfillHours: 1, watchman: true, dairySync: false });
}, 180_000);
afterAll(async () => stack?.stop());

const runs = async (token: string) => operatorContracts.GET_ACTIVITY.answer.parse((await stack.post('/api/watchman', { type: 'GET_ACTIVITY' }, token)).body);

describe('npm start: Watchman after the catch-up', () => {
  it('runs Watchman once as soon as the simulated history is in, long before its hourly schedule', async () => {
    const admin = await stack.signIn('admin@vatman.local');
    const startedAt = Date.now();
    expect(stack.simulatorCaughtUp).toBeDefined();
    await stack.simulatorCaughtUp;
    let found = await runs(admin);
    for (const until = Date.now() + 60_000; found.length === 0 && Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 250));
      found = await runs(admin);
    }
    expect(found).toHaveLength(1);
    // Not the hourly schedule: that is an hour away from the stack's start.
    expect(Date.now() - startedAt).toBeLessThan(30 * 60_000);
    expect(new Date(found[0]?.started_at ?? 0).getTime()).toBeGreaterThanOrEqual(startedAt - 60_000);
  }, 150_000);
});
