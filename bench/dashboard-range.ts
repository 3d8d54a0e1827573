/**
 * Dashboard range: FARMER_DASHBOARD_LAST_ALL for farm-auto's 4 vats over 30 days of one-minute
 * readings, timed through the local API, beside a naive layout (one item per reading, one
 * partition per device, queried page by page) read in the same run from the same dynalite.
 *
 * The readings are real-shaped: the simulator's vat model (local/simulator/history.ts: milkings,
 * cooling, collections, CIP washes, sensor noise), with a 3-hour outage and a power cut on every
 * vat. Flat synthetic readings compress about 200:1 and thin to nothing, so they said little about
 * what a farm's month costs. Timed three times: as the web app asks (`points` = a 400-pixel chart,
 * `form=columns`), the same in the spec's rows, and without `points` (the server's default, 1,500 a
 * vat); each prints its JSON and what brotli and
 * gzip make of it (the stack's own encoder), against the range targets.
 *
 * DynamoDB requests and bytes are counted with a middleware on a document client of this process:
 * the action runs in-process on it with the same input (the Lambda behind the gateway has its own
 * client, which the bench cannot reach); the naive reads go through it directly. Bytes are the
 * response bodies DynamoDB sent, and capacity is the read units it reported (ReturnConsumedCapacity),
 * which bill items at their full size, attributes left out by a projection included.
 * The repository keeps decoded buckets while its container lives (the dashboard repeats its range
 * every 120 s), so the first call is printed apart from the p50/p95 of the calls after it.
 */
import { performance } from 'node:perf_hooks';
import { BatchWriteCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { farmerActivityHandlers } from '../lambdas/actions/farmer-activity';
import { createDocumentClient } from '../lambdas/adapters/dynamodb/client';
import { dynamoFarmRepository } from '../lambdas/adapters/dynamodb/farms-repository';
import { readingsKeys } from '../lambdas/adapters/dynamodb/keys';
import { readingValues } from '../shared/telemetry/reading-item';
import { dayOf } from '../shared/time/utc';
import { dynamoReadingsRepository } from '../lambdas/adapters/dynamodb/readings-repository';
import { dispatch } from '../lambdas/lib/dispatch';
import type { Ports } from '../lambdas/ports/action-ports';
import { createLogger } from '../lambdas/lib/logger';
import { lastAllColumnsResponseSchema, lastAllResponseSchema } from '../shared/api/actions/farmer-activity';
import { MAX_RANGE_DAYS } from '../shared/constants';
import { addDays, localDayOf } from '../shared/time/local-day';
import { DEMO_DEVICES, DEMO_FARMS } from '../local/seed/demo-data';
import type { LocalFacts } from '../local/start';
import { vatHistory, type HistoryFault } from '../local/simulator/history';
import { encodeBody } from '../lambdas/lib/compression';
import { percentile } from './percentile';

const DAYS = 30;
const MINUTES = DAYS * 24 * 60;
const CALLS = 20;
const NAIVE = process.env.BENCH_NAIVE === '1';
const WRITE_CONCURRENCY = 12;
const FARM = 'farm-auto';
/** Every vat: a 3-hour outage on day 12 (nothing published), a power cut of an hour on day 20. */
const FAULTS: readonly HistoryFault[] = [
  { kind: 'offline', atMinute: 12 * 1440 + 600, minutes: 180 },
  { kind: 'power_cut', atMinute: 20 * 1440 + 200, minutes: 60 },
];
/** A 30-day 4-vat range for a 400-pixel chart. */
const CHART_POINTS = 400;
const TARGET = { jsonBytes: 800_000, brotliBytes: 80_000, p95Ms: 150 };

/** The device's message as it arrives: the raw payload kept beside each reading. */
const rawOf = (message: unknown) => JSON.stringify(message);

interface Counter {
  requests: number;
  bytes: number;
  capacity: number;
}

/** Counts every request this client sends, the bytes DynamoDB answered and the read units it reported. */
const countingClient = (): { doc: DynamoDBDocumentClient; counter: Counter } => {
  const doc = createDocumentClient();
  const counter: Counter = { requests: 0, bytes: 0, capacity: 0 };
  doc.middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity ??= 'TOTAL';
      counter.requests += 1;
      const out = await next(args);
      const consumed = (out.output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] }).ConsumedCapacity;
      for (const c of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) counter.capacity += c.CapacityUnits ?? 0;
      return out;
    },
    { step: 'initialize', name: 'benchCountRequests' },
  );
  doc.middlewareStack.add(
    (next) => async (args) => {
      const out = await next(args);
      const headers = (out.response as { headers?: Record<string, string> }).headers ?? {};
      counter.bytes += Number(headers['content-length'] ?? 0);
      return out;
    },
    { step: 'deserialize', name: 'benchCountBytes' },
  );
  return { doc, counter };
};

/** `send` again after a dropped connection or a timeout, up to 5 tries. */
const sendAgain = async <T>(send: () => Promise<T>): Promise<T> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      const e = err as { code?: string; name?: string };
      if (attempt >= 5 || !(e.code === 'ECONNRESET' || e.name === 'TimeoutError')) throw err;
      await new Promise((r) => setTimeout(r, 500 * attempt));
    }
  }
};

type Post = (path: string, fields: Record<string, string>, token?: string, acceptEncoding?: string) => Promise<{ status: number; body: unknown; wireBytes: number; contentEncoding: string | null }>;

const mb = (b: number) => `${(b / 2 ** 20).toFixed(2)} MiB`;
const kb = (b: number) => `${(b / 1000).toFixed(1)} KB`;

/** The range asked CALLS + 1 times through the local API with `extra` fields: times, sizes and what each vat holds. */
const timedRange = async (post: Post, token: string, fields: Record<string, string>, extra: Record<string, string>) => {
  const times: number[] = [];
  let body: unknown;
  let firstMs = NaN;
  let wireBytes = 0;
  let encoding: string | null = null;
  for (let k = 0; k < CALLS + 1; k++) {
    const t0 = performance.now();
    const res = await post('/api/farmer/activity', { ...fields, ...extra }, token);
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`LAST_ALL answered ${res.status}: ${JSON.stringify(res.body)}`);
    if (k === 0) firstMs = ms;
    else times.push(ms); // the first call may be the Lambda's cold start, with nothing decoded yet
    body = res.body;
    wireBytes = res.wireBytes;
    encoding = res.contentEncoding;
  }
  times.sort((a, b) => a - b);
  const json = JSON.stringify(body);
  // The same answer to a client that accepts gzip only: what the wire carries then.
  const gz = await post('/api/farmer/activity', { ...fields, ...extra }, token, 'gzip');
  // What each vat holds, in either form: readings shown, cooler readings and the shadings.
  const counts =
    extra.form === 'columns'
      ? lastAllColumnsResponseSchema.parse(body).map((v) => ({ shown: v.columns.t.length, cooler: v.columns.t.filter((_, i) => v.columns.milk_in[i] !== null || v.columns.water_in[i] !== null).length, stops: v.agitatorData.listStop.length, runs: v.phyStateData.length }))
      : lastAllResponseSchema.parse(body).map((v) => ({ shown: v.detailData.length, cooler: v.coolerData.length, stops: v.agitatorData.listStop.length, runs: v.phyStateData.length }));
  return { times, firstMs, wireBytes, encoding, gzipWire: gz.wireBytes, gzipEncoding: gz.contentEncoding, json, brotli: encodeBody(json, 'br').length, gzip: encodeBody(json, 'gzip').length, counts, body };
};

/** The naive layout read page by page over each device's partition (only with BENCH_NAIVE=1), counted on `counter`. */
const naiveReads = async (doc: DynamoDBDocumentClient, counter: Counter, table: string, deviceIds: readonly string[], range: { from: string; to: string }) => {
  counter.requests = 0;
  counter.bytes = 0;
  counter.capacity = 0;
  const naiveTimes: number[] = [];
  let naivePoints = 0;
  for (let k = 0; k < (NAIVE ? 3 : 0); k++) {
    if (k === 1) Object.assign(counter, { requests: 0, bytes: 0, capacity: 0 });
    const t2 = performance.now();
    naivePoints = 0;
    await Promise.all(
      deviceIds.map(async (d) => {
        let ExclusiveStartKey: Record<string, unknown> | undefined;
        do {
          const page = await doc.send(
            new QueryCommand({
              TableName: table,
              KeyConditionExpression: 'pk = :p AND sk BETWEEN :a AND :b',
              ExpressionAttributeValues: { ':p': `NAIVE#${d}`, ':a': range.from, ':b': range.to },
              ExclusiveStartKey,
            }),
          );
          naivePoints += page.Items?.length ?? 0;
          ExclusiveStartKey = page.LastEvaluatedKey;
        } while (ExclusiveStartKey);
      }),
    );
    naiveTimes.push(performance.now() - t2);
  }
  const naive = { requests: counter.requests / 2, bytes: counter.bytes / 2, capacity: counter.capacity / 2 };
  naiveTimes.sort((a, b) => a - b);
  return { naive, naiveTimes, naivePoints };
};

export const benchDashboardRange = async (facts: LocalFacts, post: Post, token: string): Promise<void> => {
  const plain = createDocumentClient();
  const readings = dynamoReadingsRepository(plain, facts.dynamodb.readingsTable);
  const devices = DEMO_DEVICES.filter((d) => d.farm_id === FARM);
  // Whole hours, so a rerun on the same data (BENCH_DATA_DIR) finds the same first reading.
  const start = Math.floor(Date.now() / 3_600_000) * 3_600_000 - (MINUTES - 60) * 60_000;
  const today = dayOf(new Date().toISOString());

  const batchWrite = async (items: Record<string, unknown>[]) => {
    let batch = 0;
    await Promise.all(
      Array.from({ length: WRITE_CONCURRENCY }, async () => {
        while (batch * 25 < items.length) {
          const chunk = items.slice(batch * 25, ++batch * 25);
          let requests = chunk.map((Item) => ({ PutRequest: { Item } }));
          while (requests.length) {
            // dynalite drops a connection now and then on a loaded machine: the batch is sent again (puts are idempotent).
            const res = await sendAgain(() => plain.send(new BatchWriteCommand({ RequestItems: { [facts.dynamodb.readingsTable]: requests } })));
            requests = (res.UnprocessedItems?.[facts.dynamodb.readingsTable] ?? []) as typeof requests;
          }
        }
      }),
    );
  };
  const farm = DEMO_FARMS.find((f) => f._id === FARM);
  if (!farm) throw new Error(`no demo farm ${FARM}`);
  let t = performance.now();
  const jobs = devices.flatMap((d) => vatHistory(farm, d, start, MINUTES, FAULTS).map(({ message, reading }) => ({ d: d._id, r: reading, raw: rawOf(message) })));
  // A rerun on kept data (BENCH_DATA_DIR) writes nothing again if the first and the last reading are there.
  const stored = async (job: (typeof jobs)[number] | undefined) => (job ? (await readings.readPartitions(job.d, job.r.published_at, job.r.published_at)).length > 0 : false);
  const already = (await stored(jobs[0])) && (await stored(jobs.at(-1)));
  console.log(`dashboard range: the simulator's vat model made ${jobs.length.toLocaleString('en')} readings (4 vats × ${DAYS} days, an outage and a power cut each) in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  // 1. The ingest's layout: each reading as the one item putReading writes (reading + raw payload in
  //    its UTC day partition), then compactDay for each closed day as the ingest does when a day
  //    closes. The items go in by BatchWrite: putReading's conditional single puts run at about
  //    1,000 a second here, which made this step take 160 s; what is stored is the same.
  t = performance.now();
  if (!already) {
    await batchWrite(
      jobs.map(({ d, r, raw }) => ({ ...readingsKeys.reading(d, r.published_at), ...readingValues(r), raw, expires_at: Math.floor(Date.parse(r.published_at) / 1000) + 35 * 86_400 })),
    );
  }
  const days = [...new Set(Array.from({ length: DAYS + 1 }, (_, k) => dayOf(new Date(start + k * 86_400_000).toISOString())))].filter((d) => d < today);
  // dynalite drops a connection now and then on a loaded machine: a compaction is sent again (it is idempotent).
  await Promise.all(devices.flatMap((d) => days.map((day) => sendAgain(() => readings.compactDay(d._id, day)))));
  console.log(
    `dashboard range: wrote ${jobs.length.toLocaleString('en')} readings as putReading's items and compacted ${days.length * devices.length} day buckets in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );

  // 2. The naive layout: the same items (reading + raw) in one partition per device. Written and
  //    read only with BENCH_NAIVE=1: it doubles the bench's writes, and its figures do not change.
  t = performance.now();
  if (NAIVE && !already) {
    await batchWrite(jobs.map(({ d, r, raw }) => ({ pk: `NAIVE#${d}`, sk: r.published_at, ...r, device_id: d, raw })));
  }
  if (NAIVE) console.log(`dashboard range: wrote the naive layout (${jobs.length.toLocaleString('en')} items, one partition per device) in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  // 3. FARMER_DASHBOARD_LAST_ALL for the last 30 farm-local days through the API.
  const endDate = localDayOf(Date.now(), 'Pacific/Auckland');
  const fields = { type: 'FARMER_DASHBOARD_LAST_ALL', farm: FARM, startDate: addDays(endDate, -(DAYS - 1)), endDate };
  if (DAYS - 1 > MAX_RANGE_DAYS) throw new Error('range over the maximum');
  // The web app's form first: its first call is the cold one (the Lambda's first, nothing decoded yet).
  const columnar = await timedRange(post, token, fields, { points: String(CHART_POINTS), form: 'columns' });
  const chart = await timedRange(post, token, fields, { points: String(CHART_POINTS) });
  const byDefault = await timedRange(post, token, fields, {});
  const vats = lastAllResponseSchema.parse(chart.body);
  const points = vats.reduce((s, v) => s + v.points, 0);

  // 4. The same action in-process on a counting client: its DynamoDB requests per call.
  const { doc, counter } = countingClient();
  const farms = dynamoFarmRepository(doc, facts.dynamodb.farmsTable);
  const user = await dynamoFarmRepository(plain, facts.dynamodb.farmsTable).findUserByEmail('farmer@vatman.local');
  if (!user) throw new Error('no demo farmer');
  // The endpoint's dispatch with the ports this action and its access rule use, on the counting client.
  const ports = { farms, readings: dynamoReadingsRepository(doc, facts.dynamodb.readingsTable), now: () => new Date() } as Partial<Ports> as Ports;
  const run = dispatch({ auth: 'jwt', actions: farmerActivityHandlers, ports, log: createLogger({ bench: 'dashboard-range' }) });
  const event = { body: { ...fields, points: String(CHART_POINTS) }, requestContext: { authorizer: { jwt: { claims: { sub: user._id, username: user.email }, scopes: null } } } } as unknown as APIGatewayProxyEventV2;
  const t1 = performance.now();
  await run(event);
  const inProcessMs = performance.now() - t1;
  const ours = { ...counter };


  // 5. Naive: page by page over each device's partition, the 4 vats in parallel as the action does.
  const range = vats[0]?.range;
  if (!range) throw new Error('no range');
  const { naive, naiveTimes, naivePoints } = await naiveReads(doc, counter, facts.dynamodb.readingsTable, devices.map((d) => d._id), range);

  const mark = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(`dashboard range: FARMER_DASHBOARD_LAST_ALL, ${FARM}, 4 vats, ${fields.startDate}..${fields.endDate} (${range.from} to ${range.to}), ${points.toLocaleString('en')} readings in range`);
  for (const [label, r] of [
    [`points=${CHART_POINTS}, form=columns (what the web app asks: a 400 px chart, the columnar form)`, columnar],
    [`points=${CHART_POINTS}, rows (the spec's default form)`, chart],
    ['no points, rows (server default, 1,500 a vat)', byDefault],
  ] as const) {
    const shown = r.counts.map((v) => v.shown);
    const sum = (k: 'cooler' | 'stops' | 'runs') => r.counts.reduce((s, v) => s + v[k], 0).toLocaleString('en');
    const p95 = percentile(r.times, 95);
    console.log(`  ${label}`);
    console.log(`    through the local API  n=${CALLS} p50 ${percentile(r.times, 50).toFixed(1)} ms  p95 ${p95.toFixed(1)} ms  max ${r.times.at(-1)?.toFixed(1)} ms; first call ${r.firstMs.toFixed(0)} ms${r === columnar ? ' (cold start, no bucket decoded yet)' : ''}`);
    console.log(
      `    answer ${kb(r.json.length)} of JSON; on the wire ${kb(r.wireBytes)} ${r.encoding ?? 'uncompressed'} (browser's accept-encoding), ${kb(r.gzipWire)} ${r.gzipEncoding ?? 'uncompressed'} (gzip only); encoded here ${kb(r.brotli)} brotli, ${kb(r.gzip)} gzip; ${shown.join(' + ')} detail points, ${sum('cooler')} cooler points, ${sum('stops')} agitator stops, ${sum('runs')} state runs`,
    );
    if (r !== byDefault) {
      console.log(
        `    targets: JSON ≤ ${kb(TARGET.jsonBytes)} ${mark(r.json.length <= TARGET.jsonBytes)}; brotli on the wire ≤ ${kb(TARGET.brotliBytes)} ${r.encoding === 'br' ? mark(r.wireBytes <= TARGET.brotliBytes) : 'NOT met (not sent as br)'}; p95 < ${TARGET.p95Ms} ms ${mark(p95 < TARGET.p95Ms)}; first call (cold) ${r.firstMs.toFixed(0)} ms`,
      );
    }
  }
  console.log(
    `  DynamoDB per call      ${ours.requests} requests, ${mb(ours.bytes)} received, ${ours.capacity.toFixed(1)} read units (in-process run of the same action on a fresh repository, nothing cached: ${inProcessMs.toFixed(0)} ms)`,
  );
  if (NAIVE) {
  console.log(
      `  naive, item per reading ${naive.requests} requests, ${mb(naive.bytes)} received, ${naive.capacity.toFixed(1)} read units, ${naivePoints.toLocaleString('en')} items, query time ${naiveTimes[0]?.toFixed(0)}–${naiveTimes.at(-1)?.toFixed(0)} ms (reads only, no thinning)`,
    );
    console.log(
      `  ratio                  ${(naive.requests / ours.requests).toFixed(1)}× fewer requests, ${(naive.bytes / Math.max(1, ours.bytes)).toFixed(1)}× fewer bytes, ${(naive.capacity / Math.max(0.001, ours.capacity)).toFixed(1)}× fewer read units`,
    );
  }
};
