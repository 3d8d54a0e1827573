/**
 * `npm run bench:load`: the local API under concurrent load, driven by autocannon (a load tool from
 * the npm registry) in a worker thread beside the stack this process starts on free ports.
 *
 * Run 1, the load: 200 requests a second of mixed farmer and operator reads for 5 minutes
 * (`--duration 60` or `--duration 1m` for a shorter try): the farmer's dashboard, the last 24 hours'
 * range for a 400-pixel chart, the alerts page and the notification list of the Auto farm (4 vats,
 * 48 hours of simulated readings, then live), and an Admin's device list and farm list (signed in
 * with the authenticator code step, as every operator is). Printed: p50/p97.5/p99 (corrected for
 * coordinated omission: a request is late from when it was due), errors, timeouts and every
 * non-2xx status, against the target p99 < 300 ms and 0 errors. The per-IP limit is lifted for this
 * stack only, through the variable `npm start` reads (local/stand-ins/api-gateway.ts
 * gatewayLimitsFromEnv), since every request comes from 127.0.0.1: API_RATE_PER_IP. The stage
 * throttle is AWS's own (shared/api/throttle.ts, 300 a second, burst 600: sized for this load,
 * docs/decisions/114), so a 429 from it would show here.
 *
 * Run 2, the real per-IP limit: a second stack with API_RATE_PER_IP unset (the WAF rule's 3,000 in
 * 5 minutes) and the stage throttle, which 200 a second is under, so every 429 is the per-IP rule's; 200 requests a
 * second until 500 past the limit. Printed: how many were answered before the limit, and the 429s after it.
 *
 * Not a test: it prints what it measured. Loopback only.
 */
import '../local/quiet-warnings';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import autocannon, { type Request, type Result } from 'autocannon';
import { API_LOAD_RATE, API_RATE_PER_IP } from '../shared/api/throttle';
import { simulateDemoFarm } from '../test/support/demo-farm-readings';
import { startTestStack } from '../test/support/local-stack';
import { localDayOf } from '../shared/time/local-day';

const TARGET = { p99Ms: 300, errors: 0 };
const RATE = API_LOAD_RATE;
const CONNECTIONS = 40;
const FARM = 'farm-auto';
const FARMER = 'farmer@vatman.local';
const ADMIN = 'admin@vatman.local';

/** `--duration 300`, `--duration 90s` or `--duration 5m`: seconds of the load run. */
export const durationSeconds = (argv: readonly string[]): number => {
  const at = argv.indexOf('--duration');
  const raw = at >= 0 ? argv[at + 1] : argv.find((a) => a.startsWith('--duration='))?.slice('--duration='.length);
  if (raw === undefined) return 300;
  const m = /^(\d+)(s|m)?$/.exec(raw);
  if (!m) throw new Error(`--duration ${raw}: give seconds (90, 90s) or minutes (5m)`);
  return Number(m[1]) * (m[2] === 'm' ? 60 : 1);
};

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** The mix, in the order each connection sends it: 6 farmer reads, 3 operator reads. */
const mix = (farmerToken: string, adminToken: string): Request[] => {
  const today = localDayOf(Date.now(), 'Pacific/Auckland');
  const as = (token: string, path: string, fields: Record<string, string>): Request => ({
    method: 'POST',
    path,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded', 'accept-encoding': 'br, gzip' },
    body: form(fields),
  });
  return [
    as(farmerToken, '/api/farmer/dashboard', { type: 'FARMER_DASHBOARD_GET', farm: FARM }),
    as(farmerToken, '/api/farmer/activity', { type: 'FARMER_DASHBOARD_LAST_ALL', farm: FARM, startDate: today, endDate: today, points: '400' }),
    as(adminToken, '/api/admin/device', { type: 'DEVICE_LIST', isRetired: '1' }),
    as(farmerToken, '/api/farmer/notification', { type: 'FARMER_NOTIFICATION_LIST', farm: FARM }),
    as(farmerToken, '/api/farmer/activity', { type: 'FARMER_DASHBOARD_LAST', farm: FARM }),
    as(adminToken, '/api/admin/farm', { type: 'FARM_LIST' }),
    as(farmerToken, '/api/farmer/dashboard', { type: 'FARMER_DASHBOARD_GET', farm: FARM }),
    as(farmerToken, '/api/farmer/setting', { type: 'USER_SETTING_ALERT_GET', farm: FARM }),
    as(adminToken, '/api/admin/device', { type: 'DEVICE_LIST', isRetired: '1' }),
  ];
};

const statusCounts = (r: Result): Record<string, number> =>
  Object.fromEntries(Object.entries((r as unknown as { statusCodeStats?: Record<string, { count?: number } | undefined> }).statusCodeStats ?? {}).map(([code, s]) => [code, s?.count ?? 0]));
const statuses = (r: Result) =>
  Object.entries(statusCounts(r))
    .map(([code, count]) => `${code}×${count.toLocaleString('en')}`)
    .join(', ');

const drive = (url: string, requests: Request[], run: { duration: number } | { amount: number }, rate: number): Promise<Result> =>
  autocannon({ url, requests, ...run, overallRate: rate, connections: CONNECTIONS, timeout: 10, workers: 1 });

type Stack = Awaited<ReturnType<typeof startTestStack>>;

/** Until the ingest has stored every vat's newest reading (the simulator's backfill is queued ahead of it). */
const untilCaughtUp = async (stack: Stack, token: string) => {
  const started = Date.now();
  for (;;) {
    const res = await stack.post('/api/farmer/activity', { type: 'FARMER_DASHBOARD_LAST', farm: FARM }, token);
    const last = (res.body as { last: { published_at: string } | null }[] | undefined) ?? [];
    if (res.status === 200 && last.length > 0 && last.every((v) => v.last && Date.now() - Date.parse(v.last.published_at) < 3 * 60_000)) return;
    if (Date.now() - started > 300_000) throw new Error('the simulated readings were not ingested within 5 minutes');
    await new Promise((r) => setTimeout(r, 1000));
  }
};

/** Each read of the mix once, answered 200: every route's Lambda has started (its cold start is not the load's). */
const warmUp = async (stack: Stack, requests: Request[]) => {
  const times: string[] = [];
  for (const r of requests) {
    const t = performance.now();
    const res = await fetch(`${stack.facts.api}${r.path}`, { method: 'POST', headers: r.headers as Record<string, string>, body: r.body as string });
    if (res.status !== 200) throw new Error(`warm-up ${r.path} ${String(r.body)}: ${res.status} ${await res.text()}`);
    const bytes = (await res.arrayBuffer()).byteLength;
    times.push(`${new URLSearchParams(String(r.body)).get('type')} ${(performance.now() - t).toFixed(0)} ms ${(bytes / 1000).toFixed(1)} KB`);
  }
  return times;
};

const withStack = async <T>(env: Record<string, string | undefined>, body: (stack: Stack) => Promise<T>): Promise<T> => {
  // startLocalStack reads the variables when it starts the gateway, as `npm start` does; they are
  // put back at once, so nothing else in this process sees them.
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const put = (vars: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(vars)) if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  };
  put(env);
  let stack: Stack;
  try {
    stack = await startTestStack(undefined, undefined, { dairySync: false, watchman: false });
  } finally {
    put(before);
  }
  try {
    return await body(stack);
  } finally {
    await stack.stop();
  }
};

const seconds = durationSeconds(process.argv.slice(2));

// Run 1: the load, limits lifted for this stack only.
await withStack({ API_RATE_PER_IP: '1000000', API_THROTTLE_RATE: undefined }, async (stack) => {
  const t = performance.now();
  const sim = await simulateDemoFarm(stack.facts.mqtt, FARM, 48, 1_000);
  try {
    const farmerToken = await stack.signIn(FARMER);
    await untilCaughtUp(stack, farmerToken);
    console.log(`load: the Auto farm's 48 hours of simulated readings (4 vats) ingested in ${((performance.now() - t) / 1000).toFixed(0)} s; then live`);
    const requests = mix(farmerToken, await stack.signIn(ADMIN));
    await warmUp(stack, requests);
    console.log(`load: each read alone, once warm: ${(await warmUp(stack, requests)).join('; ')}`);
    console.log(`load: ${RATE} requests/s for ${seconds} s over ${CONNECTIONS} connections, ${requests.length} reads in turn (farmer: dashboard ×2, today's range, the last readings, notifications, alert settings; Admin: device list ×2, farm list); load average before ${load()}`);
    const r = await drive(stack.facts.api, requests, { duration: seconds }, RATE);
    const ok = r.latency.p99 < TARGET.p99Ms && r.errors + r.timeouts === TARGET.errors && r.non2xx === 0;
    console.log(
      `load: ${r.requests.total.toLocaleString('en')} requests in ${r.duration.toFixed(0)} s (${r.requests.average.toFixed(0)}/s): latency p50 ${r.latency.p50} ms, p97.5 ${r.latency.p97_5} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms ` +
        `(target p99 < ${TARGET.p99Ms} ms); errors ${r.errors}, timeouts ${r.timeouts}, non-2xx ${r.non2xx} (target 0); statuses ${statuses(r)}: ${ok ? 'met' : 'NOT met'}; load average after ${load()}`,
    );
  } finally {
    await sim.stop();
  }
});

// Run 2: the real per-IP limit.
await withStack({ API_RATE_PER_IP: undefined, API_THROTTLE_RATE: undefined }, async (stack) => {
  // The cheapest answered route (the public sign-in status), so the run reaches the limit in
  // seconds on a loaded machine; the WAF rule counts every request from the address alike.
  const probe: Request = { method: 'POST', path: '/api/user', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form({ type: 'USER_CHECK_LOGIN_STATUS' }) };
  await warmUp(stack, [probe]);
  const before = 1;
  const amount = API_RATE_PER_IP.limit + 500;
  const r = await drive(stack.facts.api, [probe], { amount }, RATE);
  const answered = r['2xx'];
  const refused = statusCounts(r)['429'] ?? 0;
  const ok = answered + before === API_RATE_PER_IP.limit && refused === r.requests.total - answered;
  console.log(
    `per-IP limit (API_RATE_PER_IP unset: ${API_RATE_PER_IP.limit.toLocaleString('en')} per ${API_RATE_PER_IP.windowSeconds / 60} min): ${r.requests.total.toLocaleString('en')} requests at up to ${RATE}/s from 127.0.0.1 in ${r.duration.toFixed(0)} s, ` +
      `${answered.toLocaleString('en')} answered 2xx (+ ${before} warm-up request = ${(answered + before).toLocaleString('en')}), then ${refused.toLocaleString('en')} answered 429; statuses ${statuses(r)}; errors ${r.errors}: ${ok ? 'the limit holds at 3,000' : 'NOT as expected'}`,
  );
});
