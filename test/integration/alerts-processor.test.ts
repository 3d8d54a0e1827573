import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoAlertSettingsRepository } from '../../lambdas/adapters/dynamodb/alert-settings-repository';
import { dynamoAlertsRepository } from '../../lambdas/adapters/dynamodb/alerts-repository';
import type { AlertsRepository } from '../../lambdas/ports/alerts';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import type { FarmRepository } from '../../lambdas/ports/farms';
import { dynamoMilkingWindowsRepository } from '../../lambdas/adapters/dynamodb/milking-windows-repository';
import { makeAlertProcessor } from '../../lambdas/alerts/processor';
import type { Notifier } from '../../lambdas/alerts/notifier';
import { createLogger } from '../../lambdas/lib/logger';
import type { Device } from '../../shared/entities/device';
import { reading } from '../../shared/telemetry/testing/trace';
import { startTestStack } from '../support/local-stack';

/** The engine runner over dynalite: crash safety of its outbox and dedupe of its writes. */
let stack: Awaited<ReturnType<typeof startTestStack>>;
let farms: FarmRepository;
let alerts: AlertsRepository;
let device: Device;

beforeAll(async () => {
  stack = await startTestStack();
  const doc = createDocumentClient();
  farms = dynamoFarmRepository(doc, stack.facts.dynamodb.farmsTable);
  alerts = dynamoAlertsRepository(doc, stack.facts.dynamodb.alertsTable);
  device = (await farms.getDevice('dev-ocd40721-1')) as Device;
});
afterAll(async () => {
  await stack?.stop();
});

const T0 = Date.now() - 60 * 60_000;
const warm = (m: number, temp1 = 8) =>
  reading({ published_at: new Date(T0 + m * 60_000).toISOString(), milk_volume: 4_000, temp1, agitator_status: 1, state_machine: 'storage', battery: '0x0B' });

const processorWith = (repo: AlertsRepository, delivered: string[]) => {
  const notifier = { deliver: async (n: { _id: string }) => (delivered.push(n._id), 'done' as const), retryPending: async () => 0 } as unknown as Notifier;
  const settings = dynamoAlertSettingsRepository(createDocumentClient(), stack.facts.dynamodb.farmsTable);
  const milkingWindows = dynamoMilkingWindowsRepository(createDocumentClient(), stack.facts.dynamodb.farmsTable);
  return makeAlertProcessor({ farms, settings, milkingWindows, alerts: repo, notifier, now: () => new Date(), log: createLogger({}, 'error') });
};

describe('alert processor', () => {
  it("raises 1201 late milking from the farm's imported milking window", async () => {
    const auto = (await farms.getDevice('dev-fon50412-1')) as Device;
    const farm = await farms.getFarm(auto.farm_id);
    // The window's end of milking: an hour before this milking ends, in the farm's time; 30 min buffer.
    const end = T0 + 11 * 60_000;
    const hhmm = new Intl.DateTimeFormat('en-GB', { timeZone: farm?.timezone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(end - 60 * 60_000));
    await dynamoMilkingWindowsRepository(createDocumentClient(), stack.facts.dynamodb.farmsTable).put({
      farm_id: auto.farm_id,
      fonterra_id: farm?.fonterra_id ?? '',
      buffer_duration: 30,
      end_of_milking: hhmm,
      updated_at: new Date().toISOString(),
      updated_by: 'test',
    });
    const p = processorWith(alerts, []);
    for (let m = 0; m <= 12; m += 1) {
      await p.onReading({
        device: auto,
        reading: reading({ published_at: new Date(T0 + m * 60_000).toISOString(), milk_volume: 2_000 + m * 50, temp1: 4, agitator_status: 1, state_machine: m < 11 ? 'milking' : 'storage', battery: '0x0B' }),
      });
    }
    const late = (await alerts.list(auto.farm_id)).filter((n) => n.type === 1201);
    expect(late.map((n) => n.lateMilking)).toEqual([{ end_time_current: new Date(end).toISOString(), end_time_schedule: new Date(end - 60 * 60_000).toISOString() }]);
  });

  it('a crash after committing the state but before writing the alert: the next reading writes it, delivered once', async () => {
    const delivered: string[] = [];
    let failOnce = true;
    const flaky: AlertsRepository = {
      ...alerts,
      raise: async (n, open) => {
        if (failOnce) {
          failOnce = false;
          throw new Error('DynamoDB went away');
        }
        return alerts.raise(n, open);
      },
    };
    const p = processorWith(flaky, delivered);
    await p.onReading({ device, reading: warm(0) });
    await p.onReading({ device, reading: warm(1) });
    await expect(p.onReading({ device, reading: warm(2) })).rejects.toThrow('DynamoDB went away');
    expect(await alerts.list('farm-lite')).toEqual([]);
    await p.onReading({ device, reading: warm(3) });
    const list = await alerts.list('farm-lite');
    expect(list.map((n) => n.type)).toEqual([102]);
    expect(list[0]?.data.published_at).toBe(warm(2).published_at);
    expect(delivered).toEqual([list[0]?._id]);
    expect((await alerts.getEngine(device._id))?.outbox).toEqual([]);
  });

  it('a crash after writing the alert but before clearing the outbox: not written or delivered twice', async () => {
    const delivered: string[] = [];
    let raised = false;
    let failed = false;
    const flaky: AlertsRepository = {
      ...alerts,
      raise: async (n, open) => {
        raised = true;
        return alerts.raise(n, open);
      },
      putEngine: async (id, record, expected) => {
        if (raised && !failed && record.outbox.length === 0) {
          failed = true;
          throw new Error('timeout');
        }
        return alerts.putEngine(id, record, expected);
      },
    };
    const other = (await farms.getDevice('dev-ocd40721-1')) as Device;
    const vat = { ...other, _id: 'dev-wes118-3', farm_id: 'farm-wes', name: 'vm-wes118-3', vat_number: 3 };
    const p = processorWith(flaky, delivered);
    await p.onReading({ device: vat, reading: warm(0) });
    await p.onReading({ device: vat, reading: warm(1) });
    await expect(p.onReading({ device: vat, reading: warm(2) })).rejects.toThrow('timeout');
    await p.onReading({ device: vat, reading: warm(3) });
    expect((await alerts.list('farm-wes')).map((n) => n.type)).toEqual([102]);
    // The crashed run never reached delivery and the next one finds it written: the sweep
    // delivers it from the pending index (no second notification, no second send).
    expect(delivered).toHaveLength(0);
    expect((await alerts.listPendingDelivery()).map((n) => n.farm_id)).toContain('farm-wes');
  });

  it('the same reading again (a redelivery) changes nothing', async () => {
    const delivered: string[] = [];
    const p = processorWith(alerts, delivered);
    await p.onReading({ device, reading: warm(2) });
    await p.onReading({ device, reading: warm(3) });
    expect((await alerts.list('farm-lite')).length).toBe(1);
    expect(delivered).toEqual([]);
  });

  it('clears, then may raise again after a real return to normal', async () => {
    const delivered: string[] = [];
    const p = processorWith(alerts, delivered);
    for (let m = 4; m < 20; m++) await p.onReading({ device, reading: warm(m, 4) });
    for (let m = 20; m < 24; m++) await p.onReading({ device, reading: warm(m, 9) });
    expect((await alerts.list('farm-lite')).map((n) => n.type)).toEqual([102, 102]);
    expect(delivered).toHaveLength(1);
  });

  it('a warm container defers writing only the newest-reading fields; a cold one carries on from what was written and raises on time', async () => {
    const vat = (await farms.getDevice('dev-31245-2')) as Device;
    const at = (m: number, temp1: number) =>
      reading({ published_at: new Date(T0 + m * 60_000).toISOString(), milk_volume: 3_000, temp1, agitator_status: 1, state_machine: 'storage', battery: '0x0B' });
    const warmContainer = processorWith(alerts, []);
    for (let m = 0; m < 6; m++) await warmContainer.onReading({ device: vat, reading: at(m, 4) });
    // Quiet readings: the written record still points at the first of them.
    expect((await alerts.getEngine(vat._id))?.state.cursor).toBe(at(0, 4).published_at);
    // The vat warms: that changes a condition, which is written at once, with the newest reading.
    await warmContainer.onReading({ device: vat, reading: at(6, 9) });
    expect((await alerts.getEngine(vat._id))?.state.cursor).toBe(at(6, 9).published_at);
    // The warm container is gone; a cold one takes the next reading and raises 102 (2 minutes over 6 °C).
    const delivered: string[] = [];
    await processorWith(alerts, delivered).onReading({ device: vat, reading: at(8, 9) });
    const list = (await alerts.list('farm-pro')).filter((n) => n.device._id === vat._id);
    expect(list.map((n) => n.type)).toEqual([102]);
    expect(delivered).toHaveLength(1);
  });

  it("one step over a device's batch of readings (the ingest's onReadings) raises, clears and raises again as one step per reading does, each alert once", async () => {
    const base = (await farms.getDevice('dev-31245-2')) as Device;
    const one = { ...base, _id: 'dev-fold-one', name: 'vm-fold-one' };
    const batch = { ...base, _id: 'dev-fold-batch', name: 'vm-fold-batch' };
    // Cool, then warm (102 after 2 minutes over 6 °C), back to normal long enough to clear, warm again.
    const temps = [...Array<number>(4).fill(4), ...Array<number>(4).fill(9), ...Array<number>(16).fill(4), ...Array<number>(4).fill(9)];
    const at = (m: number) => reading({ published_at: new Date(T0 + m * 60_000).toISOString(), milk_volume: 3_000, temp1: temps[m] ?? 4, agitator_status: 1, state_machine: 'storage', battery: '0x0B' });
    const all = temps.map((_, m) => at(m));
    const deliveredOne: string[] = [];
    const perReading = processorWith(alerts, deliveredOne);
    for (const r of all) await perReading.onReading({ device: one, reading: r });
    const deliveredBatch: string[] = [];
    const batched = processorWith(alerts, deliveredBatch);
    // Two batches, the second repeating the end of the first (a redelivery): seen readings are skipped.
    await batched.onReadings({ device: batch, readings: all.slice(0, 14) });
    await batched.onReadings({ device: batch, readings: all.slice(10) });
    const of = async (id: string) => (await alerts.list('farm-pro')).filter((n) => n.device._id === id).map((n) => `${n.type}@${n.data.published_at}`).sort();
    const expected = await of(one._id);
    expect(expected).toHaveLength(2);
    expect(await of(batch._id)).toEqual(expected);
    expect(deliveredBatch).toHaveLength(deliveredOne.length);
    expect((await alerts.getEngine(batch._id))?.outbox).toEqual([]);
    expect((await alerts.getEngine(batch._id))?.state.cursor).toBe(all.at(-1)?.published_at);
  });
});
