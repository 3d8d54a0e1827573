/**
 * Ingest throughput: device messages through MQTT (aedes), the rule runner, the ingest stream (Kinesis
 * stand-in, 2 shards, batches of up to 10,000 within Lambda's 6 MB payload: lambdas/ingest/stream-settings.ts), the ingest handler in two worker-thread containers and
 * dynalite, beside dynalite's own raw write rates (PutItem one at a time, and BatchWriteItem of 25 in
 * parallel) measured in the same run on the same table, and the ingest's rate against the best of them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import mqtt from 'mqtt';
import { createDocumentClient } from '../lambdas/adapters/dynamodb/client';
import { dynamoFarmRepository } from '../lambdas/adapters/dynamodb/farms-repository';
import { DEMO_FARMS } from '../local/seed/demo-data';
import { telemetryTopic } from '../shared/telemetry/device-message';
import { READING_FIELDS, type Reading } from '../shared/telemetry/reading';
import { readingValues } from '../shared/telemetry/reading-item';
import type { LocalFacts } from '../local/start';

const BENCH_DEVICES = 40;
/**
 * Timed messages per device: 40,000 in all, about ten seconds, so the rate is a sustained one
 * (several batches a shard, the store's own compactions, a UTC midnight in every run's data
 * time) and a few hundred milliseconds of start or finish hardly move it (it measured 10,000
 * before: its runs spread from 38 % to 46 % of the raw rate).
 */
const MESSAGES_PER_DEVICE = 1_000;
/** Untimed messages per device before the timed ones (see benchIngest). */
const WARMUP_MESSAGES_PER_DEVICE = 250;
const RAW_ITEMS = 10_000;
/** Items of each BatchWriteItem raw measure: as many as the ingest's timed messages, so both write as much into the store. */
const BATCH_RAW_ITEMS = BENCH_DEVICES * MESSAGES_PER_DEVICE;
const RAW_CONCURRENCY = 32;
/** BatchWriteItem's raw rate: requests of 25 items (DynamoDB's most), this many in flight. */
const BATCH_SIZE = 25;
const BATCH_CONCURRENCY = 8;

/**
 * A device message like the simulator's, one minute apart per device: milk in storage (the level
 * held, the radar's reading moving a few millimetres, well inside the detectors' noise), the
 * thermostat holding 3.8-4.5 °C, the agitator running 5 minutes in 30. No alert condition: this
 * measures the steady state every reading goes through (alerts are rare events). The level used
 * to climb a millimetre a minute and drop 600 mm every 600 messages: with 1,250 messages a device
 * that drop fell inside the timed ones, read as a tanker collection that never ended, and raised
 * 'Collection not collected in estimated time' (701) on all 40 devices in every run.
 */
const message = (t: number, i: number) =>
  JSON.stringify({
    published_at: new Date(t).toISOString(),
    message_type: 'DATA',
    radar_distance: 1500 + (i % 7),
    temp1: 3.8 + (i % 8) / 10,
    temp2: 15.2,
    temp3: 17.8,
    temp4: 14.1,
    temp5: 12.3,
    shaft_rpm: i % 30 < 5 ? 96 : 0,
    agitator_status: i % 30 < 5 ? 1 : 0,
    state_machine: 'storage',
    battery: { status: '0x0B' },
    cooler: { milk_in: 34.8, water_in: 14.2 },
    signal: { strength: 62, quality: 71, disconnects: 3 },
    firmware_version: '41',
    system_version: '3.2.1',
  });

/**
 * CPU time used so far (ms) by this process (the broker, rule runner, stream stand-in and the
 * ingest's worker-thread containers) and its child processes (dynalite, …), from /proc on Linux;
 * undefined elsewhere. Steadier than a rate on a machine other work shares.
 */
const cpuMs = (): number | undefined => {
  const own = process.cpuUsage();
  const store = storeCpuMs();
  return store === undefined ? undefined : (own.user + own.system) / 1000 + store;
};
/** CPU time used so far (ms) by this process's child processes: dynalite, the store. */
const storeCpuMs = (): number | undefined => {
  try {
    let ticks = 0;
    for (const task of readdirSync('/proc/self/task')) {
      for (const pid of readFileSync(`/proc/self/task/${task}/children`, 'utf8').split(' ').filter(Boolean)) {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
        ticks += Number(fields[11]) + Number(fields[12]);
      }
    }
    return ticks * 10;
  } catch {
    return undefined;
  }
};
const perItem = (from: number | undefined, to: number | undefined, items: number) => (from === undefined || to === undefined ? 'n/a' : `${((to - from) / items).toFixed(2)} ms`);

/** `drained` resolves when the local ingest stream has handed on every record (the stack's ingestDrained). */
export const benchIngest = async (facts: LocalFacts, drained: () => Promise<void>): Promise<void> => {
  const doc = createDocumentClient();
  const farms = dynamoFarmRepository(doc, facts.dynamodb.farmsTable);
  const base = DEMO_FARMS[1];
  if (!base) throw new Error('no demo farm');
  const devices = Array.from({ length: BENCH_DEVICES }, (_, i) => ({
    _id: `bench-dev-${i}`,
    name: `vm-bench-${i}`,
    farm_id: 'farm-bench',
    vat_number: (i % 4) + 1,
    status: 1 as const,
    vat_size: 14_000,
    vat_max_height: 2438,
    vat_diameter: 2875,
    wedgeHeight: 60,
    vat_volume_offset: 0,
    vat_auto: false,
  }));
  await farms.putFarm({ ...base, _id: 'farm-bench', fonterra_id: 'BENCH1' });
  for (const d of devices) await farms.putDevice(d);

  // dynalite's raw rate: reading-sized single-item PutItems on the same table, same SDK, same process.
  const sample = JSON.parse(message(Date.now(), 7)) as Record<string, unknown>;
  let next = 0;
  const rawStart = performance.now();
  await Promise.all(
    Array.from({ length: RAW_CONCURRENCY }, async () => {
      while (next < RAW_ITEMS) {
        const i = next++;
        await doc.send(
          new PutCommand({ TableName: facts.dynamodb.readingsTable, Item: { pk: `RAWBENCH#${i % 64}`, sk: String(i).padStart(8, '0'), ...sample, raw: message(Date.now(), i) } }),
        );
      }
    }),
  );
  const rawRate = RAW_ITEMS / ((performance.now() - rawStart) / 1000);

  // dynalite's raw batch rate: items in BatchWriteItem requests of 25, several in parallel (what
  // the ingest's writeReadings sends), unprocessed items sent again. Twice: the message-shaped
  // items above (17 attributes), and items of the ingest's own stored shape (5 attributes,
  // shared/telemetry/reading-item.ts), so the ingest is compared with the store writing what it writes.
  const batchRateOf = async (prefix: string, itemOf: (i: number) => Record<string, unknown>) => {
    let nextBatch = 0;
    const cpu = cpuMs();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: BATCH_CONCURRENCY }, async () => {
        while (nextBatch < BATCH_RAW_ITEMS) {
          const first = nextBatch;
          nextBatch += BATCH_SIZE;
          let pending = Array.from({ length: Math.min(BATCH_SIZE, BATCH_RAW_ITEMS - first) }, (_, j) => ({
            PutRequest: { Item: { pk: `${prefix}#${(first + j) % 64}`, sk: String(first + j).padStart(8, '0'), ...itemOf(first + j) } },
          }));
          while (pending.length > 0) {
            const res = await doc.send(new BatchWriteCommand({ RequestItems: { [facts.dynamodb.readingsTable]: pending } }));
            pending = (res.UnprocessedItems?.[facts.dynamodb.readingsTable] ?? []) as typeof pending;
          }
        }
      }),
    );
    return { rate: BATCH_RAW_ITEMS / ((performance.now() - started) / 1000), cpuPerItem: perItem(cpu, cpuMs(), BATCH_RAW_ITEMS) };
  };
  const batch = await batchRateOf('RAWBATCH', (i) => ({ ...sample, raw: message(Date.now(), i) }));
  const sampleReading = Object.fromEntries(READING_FIELDS.map((f) => [f, sample[f] ?? null])) as unknown as Reading;
  const compact = await batchRateOf('RAWCOMPACT', (i) => ({ ...readingValues(sampleReading), raw: message(Date.now(), i), expires_at: Math.floor(Date.now() / 1000) + 86_400 }));
  const batchRate = batch.rate;
  const batchCpuPerItem = batch.cpuPerItem;
  const bestRaw = Math.max(rawRate, batchRate, compact.rate);

  // Every device's state after its messages so far (the ingest state's reading count).
  const waitForCount = async (count: number, since: number) => {
    let pending = devices.map((d) => d._id);
    while (pending.length > 0) {
      await drained();
      const states = await Promise.all(pending.map((id) => farms.getDeviceForIngest(id)));
      pending = pending.filter((_, i) => states[i]?.ingest?.n !== count);
      if (performance.now() - since > 120_000) throw new Error('ingest bench: not all messages were processed within 120 s');
      if (pending.length > 0) await new Promise((r) => setTimeout(r, 250));
    }
  };

  // The ingest: every device sends its messages in order, all devices at once, QoS 1. First
  // WARMUP messages each, untimed: the containers' cold start (module loading), their first reads
  // of each device and farm, and V8 compiling the handler's and the SDK's hot code (the optimizing
  // compiler runs on background threads of this process: in the first 10,000 messages it used
  // about as much CPU as the two containers' threads, after them a third of it) happen once per
  // container, not per message (a sustained rate is a warm one; dynalite is warm from the raw
  // measures by then). BENCH_INGEST_WARMUP=1 gives the measure before (one message each).
  // The timed messages go on from where the warm-up left off: a vat's level that jumped back at
  // the first timed message read as a tanker collection, which raised 'Collection not collected in
  // estimated time' (701) for every device an hour later, each alert's deliveries adding about a
  // fifth to the store's requests of the window.
  const total = BENCH_DEVICES * MESSAGES_PER_DEVICE;
  const warmup = Math.max(1, Number(process.env.BENCH_INGEST_WARMUP ?? WARMUP_MESSAGES_PER_DEVICE) || WARMUP_MESSAGES_PER_DEVICE);
  const start = Date.now() - (MESSAGES_PER_DEVICE + 60) * 60_000;
  const client = await mqtt.connectAsync(facts.mqtt, { clientId: 'bench-ingest' });
  const warm = performance.now();
  await Promise.all(
    devices.map(async (d) => {
      for (let i = 0; i < warmup; i += 1) await client.publishAsync(telemetryTopic(d.name), message(start - (warmup - i) * 60_000, i), { qos: 1 });
    }),
  );
  await waitForCount(warmup, warm);
  const ingestCpu = cpuMs();
  const ingestStoreCpu = storeCpuMs();
  const t0 = performance.now();
  await Promise.all(
    devices.map(async (d) => {
      for (let i = 0; i < MESSAGES_PER_DEVICE; i += 1) await client.publishAsync(telemetryTopic(d.name), message(start + i * 60_000, warmup + i), { qos: 1 });
    }),
  );
  const published = performance.now() - t0;
  // Done when the ingest stream is empty and idle and every device's ingest state has seen all its
  // readings. The stream is asked first (no DynamoDB load); the states are checked after, and again
  // every 250 ms if a device is still behind (the rule runner may still be handing records on).
  await waitForCount(warmup + MESSAGES_PER_DEVICE, t0);
  const elapsed = performance.now() - t0;
  const ingestCpuPerMessage = perItem(ingestCpu, cpuMs(), total);
  const ingestStoreCpuPerMessage = perItem(ingestStoreCpu, storeCpuMs(), total);
  await client.endAsync();
  const rate = total / (elapsed / 1000);
  console.log(`dynalite raw write rate (PutItem, ~700 B, c=${RAW_CONCURRENCY})          ${rawRate.toFixed(0)} items/s`);
  console.log(`dynalite raw write rate (BatchWriteItem of ${BATCH_SIZE}, ~700 B, c=${BATCH_CONCURRENCY})  ${batchRate.toFixed(0)} items/s (CPU ${batchCpuPerItem} an item, all processes)`);
  console.log(`dynalite raw write rate (BatchWriteItem of ${BATCH_SIZE}, the ingest's 5-attribute item)  ${compact.rate.toFixed(0)} items/s (CPU ${compact.cpuPerItem} an item, all processes)`);
  console.log(
    `ingest: ${total} messages (after ${warmup * BENCH_DEVICES} untimed), ${BENCH_DEVICES} devices, MQTT QoS1 → rule → stream → handler (batches) → dynalite   ${rate.toFixed(0)} messages/s sustained (published in ${(published / 1000).toFixed(1)} s, all processed in ${(elapsed / 1000).toFixed(1)} s), ${((rate / bestRaw) * 100).toFixed(0)} % of the best raw rate (${((rate / rawRate) * 100).toFixed(0)} % of PutItem's, ${((rate / batchRate) * 100).toFixed(0)} % of BatchWriteItem's, ${((rate / compact.rate) * 100).toFixed(0)} % of BatchWriteItem's of its own item shape), CPU ${ingestCpuPerMessage} a message (all processes; the store ${ingestStoreCpuPerMessage}); targets ≥ 2,000 messages/s and ≥ 45 % of the best`,
  );
};
