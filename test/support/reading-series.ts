import type { ReadingsRepository } from '../../lambdas/ports/readings';
import { dayOf } from '../../shared/time/utc';
import type { Reading } from '../../shared/telemetry/reading';

/** A stored reading with every field the device sends, values from `over`. */
export const reading = (publishedAt: string, over: Partial<Reading> = {}): Reading => ({
  published_at: publishedAt,
  message_type: 'DATA',
  radar_distance: 1400,
  milk_level: 1000,
  milk_volume: 6100,
  temp1: 4,
  temp2: 15.2,
  temp3: 17.8,
  temp4: 14.1,
  temp5: 12.3,
  temp6: null,
  pressure: null,
  shaft_rpm: 0,
  agitator_status: 0,
  state_machine: 'storage',
  battery_status: '0x0B',
  on_mains: true,
  milk_in: null,
  water_in: null,
  quality: null,
  controller_status: null,
  ...over,
});

/** A storage day like the simulator's: agitator 5 minutes in 30, volume and temperature waves, a cooler during milkings. */
export const syntheticReading = (t: number, i: number): Reading => {
  const milking = i % 720 < 120;
  return reading(new Date(t).toISOString(), {
    milk_level: 500 + (i % 720),
    milk_volume: 3000 + (i % 720) * 10,
    temp1: 4 + (i % 30) / 10,
    shaft_rpm: i % 30 < 5 ? 96 : 0,
    agitator_status: i % 30 < 5 ? 1 : 0,
    state_machine: milking ? 'milking' : 'storage',
    milk_in: milking ? 34.8 : null,
    water_in: milking ? 14.2 : null,
  });
};

/**
 * Writes one reading a minute for a device straight through the repository, as the ingest does
 * (putReading each, then compactDay for each closed UTC day), `concurrency` writes in flight.
 */
export const writeSeries = async (
  readings: ReadingsRepository,
  deviceId: string,
  fromMs: number,
  minutes: number,
  make: (t: number, i: number) => Reading = syntheticReading,
  concurrency = 16,
): Promise<void> => {
  const start = Math.floor(fromMs / 60_000) * 60_000;
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < minutes) {
        const i = next++;
        const r = make(start + i * 60_000, i);
        await readings.putReading(deviceId, r, JSON.stringify({ published_at: r.published_at }));
      }
    }),
  );
  const today = dayOf(new Date().toISOString());
  const days = new Set<string>();
  for (let i = 0; i < minutes; i += 60) days.add(dayOf(new Date(start + i * 60_000).toISOString()));
  days.add(dayOf(new Date(start + (minutes - 1) * 60_000).toISOString()));
  await Promise.all([...days].filter((d) => d < today).map((d) => readings.compactDay(deviceId, d)));
};
