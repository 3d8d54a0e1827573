/**
 * `npm run bench`: figures for the local stack, printed. Runs against loopback only, bounded in
 * count and time. Not a test: it asserts nothing and prints what it measured.
 */
import '../local/quiet-warnings';
import { performance } from 'node:perf_hooks';
import { startTestStack } from '../test/support/local-stack';
import { benchDashboardRange } from './dashboard-range';
import { benchDeviceFleet } from './device-fleet';
import { benchIngest } from './ingest';
import { benchWatchman } from './watchman';
import { benchWatchmanStore } from './watchman-store';
import { benchLambdaBundles } from './lambda-bundles';
import { benchCoolingForecast } from './cooling-forecast';
import { percentile } from './percentile';

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

const measure = async (label: string, n: number, concurrency: number, fn: () => Promise<void>) => {
  const times: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        next += 1;
        const t = performance.now();
        await fn();
        times.push(performance.now() - t);
      }
    }),
  );
  const wall = performance.now() - started;
  times.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(44)} n=${String(n).padEnd(5)} c=${String(concurrency).padEnd(3)} p50 ${fmt(percentile(times, 50)).padEnd(9)} p95 ${fmt(percentile(times, 95)).padEnd(9)} p99 ${fmt(percentile(times, 99)).padEnd(9)} ${(n / (wall / 1000)).toFixed(0)} req/s`,
  );
};

const t0 = performance.now();
const stack = await startTestStack();
console.log(`local stack start (dynalite, cognito-local, seed, gateway, broker): ${fmt(performance.now() - t0)}`);
try {
  const token = await stack.signIn('farmer@vatman.local');
  const ok = async (res: Promise<{ status: number }>) => {
    const r = await res;
    if (r.status !== 200) throw new Error(`status ${r.status}`);
  };
  // The gateway's throttle (50/s, burst 100) is part of what is measured at concurrency: keep under it.
  await measure('USER_SIGN_IN (cognito-local)', 40, 1, () =>
    ok(stack.post('/api/user', { type: 'USER_SIGN_IN', user: JSON.stringify({ email: 'farmer@vatman.local', password: 'VatMan-demo-2026' }) })),
  );
  await new Promise((r) => setTimeout(r, 1000));
  await measure('FARMER_DASHBOARD_GET (authorizer + 3 queries)', 40, 1, () => ok(stack.post('/api/farmer/dashboard', { type: 'FARMER_DASHBOARD_GET', farm: 'farm-auto' }, token)));
  await new Promise((r) => setTimeout(r, 1000));
  await measure('USER_ONE_GET_BY_TOKEN (Lambda-verified token)', 40, 4, () => ok(stack.post('/api/user', { type: 'USER_ONE_GET_BY_TOKEN' }, token)));
  await benchIngest(stack.facts, stack.ingestDrained);
  await benchDashboardRange(stack.facts, stack.postMeasured, token);
  await benchDeviceFleet(stack.facts, stack.post, await stack.signIn('admin@vatman.local'));
  await benchWatchman();
  await benchWatchmanStore(stack.facts);
  await benchLambdaBundles();
  benchCoolingForecast();
  const mem = process.memoryUsage();
  console.log(`memory after the run: rss ${(mem.rss / 2 ** 20).toFixed(0)} MiB, heap used ${(mem.heapUsed / 2 ** 20).toFixed(0)} MiB (one process: dynalite, gateway, broker, handlers; cognito-local is a child)`);
} finally {
  await stack.stop();
}
