import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INGEST_STREAM } from '../../lambdas/ports/function-settings';
import { deadLetterRecords, redrive } from '../../local/replay-dlq';
import type { TelemetryMessageInput } from '../../shared/telemetry/device-message';
import { startDynaliteTables, type DynaliteTables } from '../support/dynalite';
import { ingestFaults, MESSAGES, START, type KillPoint } from '../support/ingest-faults';
import { shuffled } from '../support/telemetry';

/*
 * Fault injection on the local stack's stand-ins (dynalite, the Kinesis stream with its retries
 * and on-failure destination) with the real SDK, the real ingest and the real alert engine. Every
 * case runs a clean device in the same test and compares what the faulty run stored with it: the
 * readings, day buckets, activities, ingest state and alerts, with the device's id taken out.
 */
let store: DynaliteTables;
let f: ReturnType<typeof ingestFaults>;

beforeAll(async () => {
  store = await startDynaliteTables('faults');
  f = ingestFaults(store);
});
afterAll(async () => store?.dynamo.stop());

/** Minutes 50-80 of the trace (a milking, an agitator stop) held back and sent after the rest: late readings, a replay. */
const held = (m: TelemetryMessageInput) => m.published_at >= new Date(START + 50 * 60_000).toISOString() && m.published_at < new Date(START + 80 * 60_000).toISOString();
const isIntent = (args: unknown[]) => (args[1] as { state: { replay?: unknown } }).state.replay !== undefined;

const killPoints: readonly { name: string; late: boolean; point: KillPoint }[] = [
  { name: 'after the late readings are written', late: true, point: { target: 'readings', method: 'writeReadings', when: 'after', match: () => true } },
  // The replay reads from an hour ('YYYY-MM-DDTHH'); the alert catch-up of a cold container reads from an instant.
  { name: 'during the replay', late: true, point: { target: 'readings', method: 'readPartitions', when: 'after', match: (a: unknown[]) => String(a[1]).length === 13 } },
  { name: 'before the replay commit', late: true, point: { target: 'farms', method: 'commitIngest', when: 'before', match: (a: unknown[]) => !isIntent(a) } },
  // The engine's commit that raises an alert (its outbox holds it): the readings that raise it are committed by the ingest already.
  { name: 'after the commit, before the alert engine ran', late: false, point: { target: 'alerts', method: 'putEngine', when: 'before', match: (a: unknown[]) => (a[1] as { outbox: unknown[] }).outbox.length > 0 } },
];

describe('ingest faults: a container killed', () => {
  it.each(killPoints)('a container killed $name: the redelivery ends where a clean run ends', async ({ name, late, point }) => {
    const id = `kill-${killPoints.findIndex((k) => k.name === name)}`;
    const clean = await f.cleanRun(`${id}-clean`);
    await f.addVat(id);
    const { stream, send, deadLetters, arm, killer } = f.killingStream(point, !late);
    send(`vm-${id}`, late ? MESSAGES.filter((m) => !held(m)) : MESSAGES);
    await stream.drained();
    if (late) {
      arm();
      send(`vm-${id}`, MESSAGES.filter(held));
      await stream.drained();
    }
    await stream.stop();
    expect(killer().state.killed).toBe(true);
    expect(deadLetters()).toBe('');
    // Held readings arrive late (no alert evaluation for them), so the comparison is with a clean
    // run of the same delivery when they were held; they lie outside the alert stretch.
    expect(await f.outcome(id)).toEqual(clean);
  });

  it('a backlog of twelve devices in batches of the real size (INGEST_STREAM), a container killed mid-batch: every device ends where a clean run ends', async () => {
    const clean = await f.cleanRun('backlog-clean');
    const ids = Array.from({ length: 12 }, (_, i) => `backlog-${i}`);
    for (const id of ids) await f.addVat(id);
    // The first batch's container dies at an alert-raising engine commit (one device's readings
    // committed by the ingest, others not yet handled); the retry gets a cold container.
    const { stream, send, deadLetters, largestBatch, killer } = f.killingStream((killPoints[3] as (typeof killPoints)[number]).point, true, INGEST_STREAM.batchSize);
    // A backlog: every device's whole trace is on the stream, minute by minute as the fleet sent
    // it, before the first batch is taken (put is synchronous), so each shard's batch holds
    // several devices' records, as many as the batch size and the payload limit let it.
    for (const m of MESSAGES) for (const id of ids) send(`vm-${id}`, [m]);
    await stream.drained();
    await stream.stop();
    expect(killer().state.killed).toBe(true);
    // Each shard's backlog (about 1,500 records, 2 MB of event) fits in one batch of the real
    // settings: up to INGEST_STREAM.batchSize records within Lambda's 6 MB payload.
    expect(largestBatch()).toBeGreaterThan(1_000);
    expect(deadLetters()).toBe('');
    for (const id of ids) expect(await f.outcome(id), id).toEqual(clean);
  }, 120_000);
});

describe('ingest faults: refused and repeated deliveries', () => {
  it('DynamoDB refusing 30 % of writes: retries and a re-drive of the dead-lettered batches lose nothing', async () => {
    const clean = await f.cleanRun('throttle-clean');
    await f.addVat('throttle');
    const { stream, send, deadLetters } = f.healthyStream(40);
    await store.dynamo.throttleWrites(0.3);
    try {
      send('vm-throttle', MESSAGES);
      await stream.drained();
    } finally {
      await store.dynamo.throttleWrites(0);
    }
    // What the stream gave up on after its retries is re-driven from the dead letters (npm run replay-dlq).
    const dead = deadLetterRecords(deadLetters());
    expect(redrive(dead, (key, data) => stream.put(key, data))).toBe(dead.length);
    await stream.drained();
    await stream.stop();
    expect(await f.outcome('throttle')).toEqual(clean);
  });

  it('the same telemetry delivered twice and out of order ends where a clean run ends', async () => {
    const clean = await f.cleanRun('twice-clean');
    await f.addVat('twice');
    const { stream, send, deadLetters } = f.healthyStream(30);
    // Out of order within the first 100 minutes (a late reading is old news to the alert engine,
    // so the stretch holds no alert condition), then all of it again, shuffled.
    send('vm-twice', [...shuffled(MESSAGES.slice(0, 100), 7), ...MESSAGES.slice(100)]);
    await stream.drained();
    send('vm-twice', shuffled(MESSAGES, 3));
    await stream.drained();
    await stream.stop();
    expect(deadLetters()).toBe('');
    expect(await f.outcome('twice')).toEqual(clean);
  });
});
