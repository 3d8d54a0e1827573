import { describe, expect, it } from 'vitest';
import { detectAll, initialDetectorState } from '../detect';
import type { Reading } from '../reading';
import { at, DAY, reading, trace, TRACE_VAT } from '../testing/trace';
import { spans } from '../testing/run';

/** Storage depends on the milking and collection detectors, so these go through detect. */
const run = (readings: readonly Reading[]) => detectAll(initialDetectorState(), readings, TRACE_VAT);
const storages = (readings: readonly Reading[]) => run(readings).changed.filter((a) => a.kind === 'storage');

describe('storage detector', () => {
  it('opens at the first reading when the stream starts mid-storage, and closes where the collection closes', () => {
    const changed = storages(trace());
    expect(changed[0]).toMatchObject({ start: { published_at: at(0) }, end: null });
    expect(changed[1]).toMatchObject({ start: { published_at: at(0) }, end: { published_at: at(188), milk_volume: 0 } });
  });

  it('opens at the start of the first milking after the vat was emptied, with that milking start point', () => {
    const { changed } = run(trace());
    const milking = changed.find((a) => a.kind === 'milking');
    const storage = changed.filter((a) => a.kind === 'storage')[2];
    expect(storage).toEqual({ kind: 'storage', start: milking?.start, end: null });
    expect(storage?.start).toMatchObject({ published_at: at(DAY.morningMilking.som), milk_volume: 0 });
  });

  it('keeps one storage across later milkings until the next collection', () => {
    const changed = storages(trace({ days: 3 }));
    expect(spans(changed, 'storage')).toEqual([
      [at(0), at(188)],
      [at(DAY.morningMilking.som), at(DAY.minutes + 192)],
      [at(DAY.minutes + DAY.morningMilking.som), at(2 * DAY.minutes + 192)],
    ]);
    expect(changed.at(-1)).toMatchObject({ start: { published_at: at(2 * DAY.minutes + DAY.morningMilking.som) }, end: null });
  });

  it('waits for a milking when the stream starts with the vat empty', () => {
    const readings = trace().filter((r) => r.published_at >= at(190));
    expect(spans(storages(readings), 'storage')).toEqual([]);
    expect(storages(readings)[0]?.start.published_at).toBe(at(DAY.morningMilking.som));
  });

  it('waits for a volume when the first readings have none', () => {
    const readings = [reading({ published_at: at(0) }), reading({ published_at: at(1), milk_volume: 5_000, state_machine: 'storage' })];
    expect(storages(readings)).toEqual([{ kind: 'storage', start: expect.objectContaining({ published_at: at(1) }), end: null }]);
  });

  it('closes one storage and opens the next on the same reading when milking starts straight after a pickup', () => {
    const readings = [
      ...[6_000, 6_000, 4_000, 2_000, 300].map((milk_volume, i) => reading({ published_at: at(i), milk_volume, state_machine: 'storage' })),
      reading({ published_at: at(5), milk_volume: 1_300, state_machine: 'som' }),
    ];
    const changed = storages(readings);
    expect(changed.slice(1)).toEqual([
      { kind: 'storage', start: expect.objectContaining({ published_at: at(0) }), end: expect.objectContaining({ published_at: at(4) }) },
      { kind: 'storage', start: expect.objectContaining({ published_at: at(5), milk_volume: 1_300 }), end: null },
    ]);
  });
});
