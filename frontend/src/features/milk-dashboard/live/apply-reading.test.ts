import { describe, expect, it } from 'vitest';
import type { LiveReading } from '@shared/live/protocol';
import type { VatLast } from '../../../lib/queries/dashboard-last';
import { applyLiveReading } from './apply-reading';

const vat = (n: number, last: VatLast['last']): VatLast => ({
  device: { _id: `dev-${n}`, name: `thing-${n}`, vat_number: n, vat_size: 10_000, vat_auto: false, last_updated: null },
  last,
  lastStorage: null,
  lastCollection: null,
  lastMilking: null,
  lastCIP: null,
});
const pushed = (over: Partial<LiveReading> = {}): LiveReading => ({
  type: 'reading',
  farm: 'farm-1',
  device: 'dev-1',
  published_at: '2026-03-10T12:05:00.000Z',
  milk_volume: 5_000,
  milk_level: 1_000,
  temp1: 3.9,
  agitator_status: 0,
  state_machine: 'storage',
  ...over,
});

describe('a pushed reading applied to the cards answer (decision 077)', () => {
  const answer = [
    vat(1, { published_at: '2026-03-10T12:00:00.000Z', milk_level: 900, milk_volume: 4_326, temp1: 4.26, temp2: 11, agitator_status: 1, quality: { currentEstCFU: 4.1 } }),
    vat(2, { published_at: '2026-03-10T12:00:00.000Z', milk_volume: 100, temp1: 5 }),
  ];

  it("takes the reading's time and values on its vat, keeps what it does not carry, and leaves the other vats as they were", () => {
    const next = applyLiveReading(answer, pushed());
    expect(next?.[0]?.last).toEqual({ published_at: '2026-03-10T12:05:00.000Z', milk_level: 1_000, milk_volume: 5_000, temp1: 3.9, temp2: 11, agitator_status: 0, state_machine: 'storage', quality: { currentEstCFU: 4.1 } });
    expect(next?.[1]).toBe(answer[1]);
  });

  it('a value the device did not report (null) is left out, as the server leaves it out', () => {
    const next = applyLiveReading(answer, pushed({ milk_level: null, milk_volume: null }));
    expect(next?.[0]?.last).not.toHaveProperty('milk_level');
    expect(next?.[0]?.last).not.toHaveProperty('milk_volume');
  });

  it('an older or equal reading, an unknown vat or no answer yet change nothing', () => {
    expect(applyLiveReading(answer, pushed({ published_at: '2026-03-10T11:00:00.000Z' }))).toBe(answer);
    expect(applyLiveReading(answer, pushed({ published_at: '2026-03-10T12:00:00.000Z' }))).toBe(answer);
    expect(applyLiveReading(answer, pushed({ device: 'dev-9' }))).toBe(answer);
    expect(applyLiveReading(undefined, pushed())).toBeUndefined();
  });

  it('a vat without any reading yet gets its first point from the push', () => {
    const next = applyLiveReading([vat(1, null)], pushed({ state_machine: null }));
    expect(next?.[0]?.last).toEqual({ published_at: '2026-03-10T12:05:00.000Z', milk_level: 1_000, milk_volume: 5_000, temp1: 3.9, agitator_status: 0 });
  });
});
