import type { FarmRepository } from '../../lambdas/ports/farms';
import { dayOf } from '../../shared/time/utc';
import type { ReadingsRepository } from '../../lambdas/ports/readings';
import type { TelemetryMessageInput } from '../../shared/telemetry/device-message';

/** A scripted stretch of one-minute readings across a UTC midnight with every kind of activity. */
export const trace = (start: number, minutes: number): TelemetryMessageInput[] => {
  const out: TelemetryMessageInput[] = [];
  for (let i = 0; i < minutes; i += 1) {
    if (i >= 100 && i < 120) continue; // a 20-minute gap: an outage
    const milking = i >= 30 && i < 90;
    const level = milking ? 200 + (i - 30) * 15 : i < 30 ? 200 : i < 150 ? 1100 : Math.max(0, 1100 - (i - 150) * 120);
    out.push({
      published_at: new Date(start + i * 60_000).toISOString(),
      radar_distance: 3500 - level,
      temp1: milking ? 12 - (i - 30) * 0.1 : 4.5,
      temp2: milking ? 18 : null,
      temp5: i >= 170 && i < 190 ? 72 : 15,
      agitator_status: i >= 60 && i < 70 ? 0 : 1,
      state_machine: level < 100 ? 'empty' : i === 30 ? 'som' : i === 89 ? 'eom' : milking ? 'milking' : 'storage',
      battery: { status: i >= 130 && i < 140 ? '0x0A' : '0x0B' },
    });
  }
  return out;
};

export const shuffled = <T>(items: readonly T[], seed: number): T[] => {
  const a = [...items];
  let s = seed;
  for (let i = a.length - 1; i > 0; i -= 1) {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = s % (i + 1);
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a;
};

/** Everything the ingest stored for a device, with the device id taken out so two vats compare. */
export const storedState = async (farms: FarmRepository, readings: ReadingsRepository, deviceId: string, from: string, to: string) => {
  const ingest = await farms.getDeviceForIngest(deviceId);
  const raws = (await Promise.all([dayOf(from), dayOf(to)].map((d) => readings.listRaw(deviceId, d)))).flat();
  const activities = await readings.listActivities(deviceId, '0', '9999');
  // The outbox (state.pending) is left out: it lists side effects already carried out (written
  // below as activities, snapshots and buckets), and stays on the item until the next commit.
  const record = ingest?.ingest as { n: number; state: { pending?: unknown } } | undefined;
  const { pending: _outbox, ...state } = record?.state ?? {};
  return {
    last_updated: ingest?.device.last_updated,
    ingest: record && { n: record.n, state },
    readings: await readings.readPartitions(deviceId, from, to),
    range: await readings.readRange(deviceId, from, to),
    raws,
    activities: activities.map(({ device_id: _d, ...a }) => a).sort((a, b) => `${a.kind}${a.start.published_at}`.localeCompare(`${b.kind}${b.start.published_at}`)),
  };
};

/**
 * A chiller left off (the alerts' end-to-end scenario): cooled milk at 4 °C, the chiller off at minute 30, the
 * vat warming 0.05 °C a minute, 171 one-minute readings from `minute(0)`. Over 6 °C from minute 71
 * and over 10 °C from minute 151 (farmer §9: at or below 6 °C once cooled), so with the engine's
 * 2-minute hold-off 102 is due at minute 73 and 101 at minute 153.
 */
export const chillerOffTrace = (minute: (m: number) => string): TelemetryMessageInput[] =>
  Array.from({ length: 171 }, (_, m) => ({
    published_at: minute(m),
    milk_level: 1000,
    temp1: Math.round((m < 30 ? 4 : 4 + (m - 30) * 0.05) * 100) / 100,
    temp2: 12,
    temp3: 14,
    agitator_status: 1,
    state_machine: 'storage',
    battery: { status: '0x0B' },
  }));
