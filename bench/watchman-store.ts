/**
 * Watchman on a real store: the job with its DynamoDB adapters (test/support/watchman-tables.ts, as
 * the handler builds them) against the local DynamoDB stand-in (dynalite), at growing farm counts.
 *
 * Each farm has 4 vats, each vat what an hourly run meets in steady state: the digests of its
 * settled hours (Readings `W#<device>`, the 72-hour window less the last 2, as the previous runs left
 * them), its raw messages since (the simulator's vat model, one kept every 20 minutes for the last 3
 * hours: the job reads them by range, so fewer only makes its reads smaller), and its last milking
 * 12 hours ago (a milking farm, so every check runs). A dynalite on this machine writes a few
 * thousand items a second, so the 10,000-farm store (3.2 million items) would take far longer to
 * write than the run: the run is timed at WATCHMAN_STORE_FARMS (default 100,200,400; the issue's
 * 1000,2000,5000 on a quiet machine; 10000 to try the whole), fitted by least squares and
 * extrapolated to 10,000. Every DynamoDB request is counted, so AWS's figure is estimated from the
 * requests per farm: each of the job's FARM_CONCURRENCY farms at once makes its requests in the
 * rounds it waits on (counted below as requests a farm; an upper bound is one round per request) at
 * 5-10 ms a DynamoDB call.
 */
import { performance } from 'node:perf_hooks';
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readingsKeys } from '../lambdas/adapters/dynamodb/keys';
import { readingValues } from '../shared/telemetry/reading-item';
import { createDocumentClient } from '../lambdas/adapters/dynamodb/client';
import { dynamoFarmRepository } from '../lambdas/adapters/dynamodb/farms-repository';
import { dynamoReadingsRepository } from '../lambdas/adapters/dynamodb/readings-repository';
import { dynamoWatchmanDigestRepository } from '../lambdas/adapters/dynamodb/watchman-digest-repository';
import { createLogger } from '../lambdas/lib/logger';
import { FARM_CONCURRENCY, makeWatchman } from '../lambdas/watchman/job';
import { SETTLED_AFTER_MS } from '../lambdas/watchman/vat-window';
import { pointOf } from '../shared/telemetry/activities';
import type { Device } from '../shared/entities/device';
import { demoFarm } from '../local/seed/demo-data';
import { vatHistory } from '../local/simulator/history';
import type { LocalFacts } from '../local/start';
import { watchmanTables } from '../test/support/watchman-tables';

const VATS = 4;
const HOUR = 3_600_000;
const WINDOW_HOURS = 72;
const RAW_HOURS = 3;
const RAW_EVERY_MIN = 20;
const TARGET_S = 60;
const WRITE_CONCURRENCY = 16;

const sizes = (process.env.WATCHMAN_STORE_FARMS ?? '100,200,400').split(',').map((s) => {
  const n = Number(s);
  if (!Number.isInteger(n) || n < 1) throw new Error(`WATCHMAN_STORE_FARMS: ${s} is not a farm count`);
  return n;
});

/** Counts every request the client sends. */
const counting = (doc: DynamoDBDocumentClient) => {
  const counter = { requests: 0 };
  doc.middlewareStack.add(
    (next) => (args) => {
      counter.requests += 1;
      return next(args);
    },
    { step: 'initialize', name: 'benchCountRequests' },
  );
  return counter;
};

const inPool = async <T>(items: readonly T[], n: number, work: (item: T) => Promise<void>) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
};

/** Farms `from`..`to`-1 with their vats, digests, recent messages and last milking. */
const writeFarms = async (facts: LocalFacts, doc: DynamoDBDocumentClient, from: number, to: number, now: number) => {
  const farms = dynamoFarmRepository(doc, facts.dynamodb.farmsTable);
  const readings = dynamoReadingsRepository(doc, facts.dynamodb.readingsTable);
  const digests = dynamoWatchmanDigestRepository(doc, facts.dynamodb.readingsTable);
  const hourNow = Math.floor(now / HOUR) * HOUR;
  const settled = Math.floor((now - SETTLED_AFTER_MS) / HOUR) * HOUR;
  const windowFrom = hourNow - WINDOW_HOURS * HOUR;
  const ids = Array.from({ length: to - from }, (_, k) => from + k);
  await inPool(ids, WRITE_CONCURRENCY, async (i) => {
    const farm = demoFarm({ _id: `wms-farm-${i}`, fonterra_id: String(80000 + i), name: `Store farm ${i}`, package: 'Vat-Man Pro', install_numVats: VATS, supplier: 'FON', install_date: '2024-01-15' });
    await farms.putFarm(farm);
    for (let v = 1; v <= VATS; v += 1) {
      const device: Device = { _id: `wms-dev-${i}-${v}`, name: `wms-${i}-${v}`, farm_id: farm._id, vat_number: v, status: 1, vat_size: 14000, vat_max_height: 2438, vat_diameter: 2875, wedgeHeight: 60, vat_volume_offset: 0, vat_auto: false };
      await farms.putDevice(device);
      // The model's last 3 hours as stored messages; the settled hours' digests as the runs before left them.
      const history = vatHistory(farm, device, hourNow - RAW_HOURS * HOUR, RAW_HOURS * 60, [], i * VATS + v);
      const digestHours = Array.from({ length: (settled - windowFrom) / HOUR }, (_, h) => windowFrom + h * HOUR).map((h, k) => ({
        hour: new Date(h).toISOString(),
        point: { hour: new Date(h).toISOString(), n: 60, strength: 70, quality: 80, probe_min: 3.5, probe_max: 19.5, stir_rpm: k % 12 < 2 ? 108 : null },
        // Two milkings a day: each one's end in the hour it ended.
        ends: k % 12 === 2 ? [{ at: new Date(h + 20 * 60_000).toISOString(), vat: 8, inlet: 19 }] : [],
      }));
      await digests.put(device._id, digestHours);
      // The items putReading writes (reading + raw payload in its day partition), by BatchWrite: the store's contents are what matter here.
      const items = history
        .filter((_, k) => k % RAW_EVERY_MIN === 0)
        .map(({ message, reading }) => ({ PutRequest: { Item: { ...readingsKeys.reading(device._id, reading.published_at), ...readingValues(reading), raw: JSON.stringify(message) } } }));
      for (let k = 0; k < items.length; k += 25) {
        let pending = items.slice(k, k + 25);
        while (pending.length) {
          const res = await doc.send(new BatchWriteCommand({ RequestItems: { [facts.dynamodb.readingsTable]: pending } }));
          pending = (res.UnprocessedItems?.[facts.dynamodb.readingsTable] ?? []) as typeof pending;
        }
      }
      const first = history[0]?.reading;
      if (first) {
        const start = { ...pointOf(first), published_at: new Date(now - 12 * HOUR).toISOString() };
        await readings.putActivity({ kind: 'milking', device_id: device._id, farm_id: farm._id, start, end: null }, 1);
      }
    }
  });
};

/** Least squares y = a + b·x. */
const fit = (xs: number[], ys: number[]) => {
  const n = xs.length;
  const mx = xs.reduce((s, x) => s + x, 0) / n;
  const my = ys.reduce((s, y) => s + y, 0) / n;
  const sxx = xs.reduce((s, x) => s + (x - mx) ** 2, 0);
  const b = sxx === 0 ? my / mx : xs.reduce((s, x, k) => s + (x - mx) * ((ys[k] ?? 0) - my), 0) / sxx;
  return { a: sxx === 0 ? 0 : my - b * mx, b };
};

export const benchWatchmanStore = async (facts: LocalFacts): Promise<void> => {
  const now = Date.now();
  const writer = createDocumentClient();
  const doc = createDocumentClient();
  const counter = counting(doc);
  const deps = watchmanTables(doc, facts.dynamodb.farmsTable, facts.dynamodb.readingsTable, facts.dynamodb.alertsTable);
  const results: { farms: number; seconds: number; requests: number }[] = [];
  let written = 0;
  // The demo farms are in the same table: they are run too, and counted.
  for (const size of [...sizes].sort((a, b) => a - b)) {
    const t = performance.now();
    await writeFarms(facts, writer, written, size, now);
    written = size;
    console.log(`watchman on dynalite: ${size.toLocaleString('en')} farms (${(size * VATS).toLocaleString('en')} vats) in the store, written in ${((performance.now() - t) / 1000).toFixed(0)} s`);
    counter.requests = 0;
    const job = makeWatchman({ ...deps, now: () => new Date(now), log: createLogger({ bench: 'watchman-store' }, 'error') });
    const t0 = performance.now();
    const outcome = await job.run();
    const seconds = (performance.now() - t0) / 1000;
    if (!outcome.ran) throw new Error(`watchman did not run: ${outcome.reason}`);
    const r = outcome.run;
    results.push({ farms: r.farms_total, seconds, requests: counter.requests });
    console.log(
      `  run over ${r.farms_total.toLocaleString('en')} farms: ${seconds.toFixed(1)} s, ${counter.requests.toLocaleString('en')} DynamoDB requests (${(counter.requests / r.farms_total).toFixed(1)} a farm); ` +
        `${r.farms_milking} milking, ${r.farms_dry} dry, ${r.cases_created} cases opened${size * 1 >= 10_000 ? ` (target ≤ ${TARGET_S} s: ${seconds <= TARGET_S ? 'met' : 'NOT met'})` : ''}`,
    );
  }
  const { a, b } = fit(
    results.map((r) => r.farms),
    results.map((r) => r.seconds),
  );
  const at10k = a + b * 10_000;
  const perFarm = results.reduce((s, r) => s + r.requests, 0) / results.reduce((s, r) => s + r.farms, 0);
  const requests10k = perFarm * 10_000;
  // In AWS a call's latency, not a shared stand-in's throughput, bounds the run: FARM_CONCURRENCY
  // farms at once, each farm's requests one after another at worst.
  const aws = (ms: number) => (requests10k * ms) / 1000 / FARM_CONCURRENCY;
  console.log(
    `  linear fit: ${a.toFixed(2)} s + ${(b * 1000).toFixed(2)} ms a farm; 10,000 farms (40,000 vats) extrapolated ${at10k.toFixed(0)} s on dynalite (target ≤ ${TARGET_S} s: ${at10k <= TARGET_S ? 'met' : 'NOT met'})`,
  );
  console.log(
    `  AWS from the request count: ${perFarm.toFixed(1)} requests a farm, ${Math.round(requests10k).toLocaleString('en')} for 10,000 farms; at 5-10 ms a DynamoDB call with ${FARM_CONCURRENCY} farms at once ` +
      `and each farm's requests taken one after another (the job overlaps a farm's vats, so this is an upper bound): ${aws(5).toFixed(0)}-${aws(10).toFixed(0)} s (target ≤ ${TARGET_S} s: ${aws(10) <= TARGET_S ? 'met' : 'NOT met'})`,
  );
};
