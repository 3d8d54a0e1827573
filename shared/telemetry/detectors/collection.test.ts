import { describe, expect, it } from 'vitest';
import { isMilkingState, type StateMachine } from '../device-message';
import type { Reading, VatConfig } from '../reading';
import { initialCollectionState, stepCollection, type CollectionState } from './collection';
import type { StepInput } from './types';
import { at, DAY, reading, trace, TRACE_VAT } from '../testing/trace';
import { runSteps, spans } from '../testing/run';

/** The collection detector alone, told "milking" from each reading's state as detect would be. */
const step = (s: CollectionState, input: StepInput) => stepCollection(s, input, isMilkingState(input.reading.state_machine));
const runReadings = (readings: readonly Reading[], vat?: VatConfig) => runSteps(step, initialCollectionState(), readings, vat);

/** One reading a minute with these volumes (null: a reading without a volume; undefined: no reading). */
const volumes = (vs: Array<number | null | undefined>, state: StateMachine = 'storage'): Reading[] =>
  vs.flatMap((milk_volume, i) => (milk_volume === undefined ? [] : [reading({ published_at: at(i), milk_volume, temp1: 4, state_machine: state })]));

/** A full vat pumped out at `rate` L/min, then empty. */
const pumpOut = (from: number, rate: number): number[] => {
  const out = [from, from, from];
  for (let v = from - rate; v > 0; v -= rate) out.push(v);
  return [...out, 0, 0, 0];
};

describe('collection detector', () => {
  describe('a real pickup', () => {
    it('runs from the last reading before the fall to the first near-empty reading that no longer falls', () => {
      const { changed } = runReadings(volumes([8_000, 8_000, 7_000, 5_500, 4_000, 2_500, 1_000, 50, 0, 0]));
      expect(changed).toEqual([
        { kind: 'collection', start: expect.objectContaining({ published_at: at(1), milk_volume: 8_000, temp1: 4 }), end: null },
        {
          kind: 'collection',
          start: expect.objectContaining({ published_at: at(1), milk_volume: 8_000 }),
          end: expect.objectContaining({ published_at: at(8), milk_volume: 0 }),
        },
      ]);
    });

    it.each([
      [20_000, 2_000],
      [20_000, 1_000],
      [6_000, 1_500],
      [15_000, 700],
    ])('finds %i L pumped out at %i L/min', (from, rate) => {
      const vs = pumpOut(from, rate);
      expect(spans(runReadings(volumes(vs)).changed, 'collection')).toEqual([[at(2), at(vs.length - 2)]]);
    });

    it('finds the pickup in a day trace (8,000 L at 1,000 L/min from minute 180)', () => {
      const { changed, state } = runReadings(trace());
      expect(spans(changed, 'collection')).toEqual([[at(DAY.collectionFrom), at(188)]]);
      expect(state.last?.start.milk_volume).toBeCloseTo(8_000, -1);
    });

    it('ends at once when the volume creeps below near empty in steps within noise', () => {
      const { changed } = runReadings(volumes([5_000, 5_000, 3_000, 1_080, 1_020, 990, 985]));
      expect(changed).toHaveLength(1);
      expect(spans(changed, 'collection')).toEqual([[at(1), at(5)]]);
    });

    it('rides out a pause of the pump (10 minutes) as one collection', () => {
      const vs = [9_000, 9_000, 7_500, 6_000, ...Array<number>(10).fill(6_000), 4_500, 3_000, 1_500, 0, 0];
      expect(spans(runReadings(volumes(vs)).changed, 'collection')).toEqual([[at(1), at(vs.length - 1)]]);
    });

    it('ends at the last near-empty reading when milk comes straight back in', () => {
      const { changed } = runReadings([...volumes([4_000, 4_000, 2_000, 500]), reading({ published_at: at(4), milk_volume: 1_500, state_machine: 'som' })]);
      expect(spans(changed, 'collection')).toEqual([[at(1), at(3)]]);
    });

    it('uses a 20 L noise floor on a small vat', () => {
      const small: VatConfig = { ...TRACE_VAT, vat_size: 1_000 };
      expect(spans(runReadings(volumes([600, 600, 590, 575, 560, 40, 30, 30]), small).changed, 'collection')).toEqual([[at(4), at(6)]]);
    });
  });

  describe('not a pickup', () => {
    it('ignores sensor noise of a few litres up and down', () => {
      expect(runReadings(trace({ noise: 40 }).slice(0, 170)).changed).toEqual([]);
      expect(runReadings(volumes([8_000, 7_990, 8_010, 7_950, 8_040, 7_960, 8_000]).slice()).changed).toEqual([]);
    });

    it('ignores noise around the near-empty line (nothing to collect)', () => {
      expect(runReadings(volumes([1_150, 1_000, 1_120, 990, 1_110, 900, 1_140, 880, 880])).changed).toEqual([]);
    });

    it('ignores a partial dip that stops (milk drawn for calves, a split pickup)', () => {
      expect(runReadings(volumes([10_000, 10_000, 9_000, 8_000, 7_000, ...Array<number>(60).fill(7_000)])).changed).toEqual([]);
    });

    it('ignores a dip that comes back', () => {
      expect(runReadings(volumes([10_000, 10_000, 9_000, 8_000, 9_000, 10_000, 10_000])).changed).toEqual([]);
    });

    it('ignores the radar losing the surface for a reading or two (a drop faster than any pump)', () => {
      expect(runReadings(volumes([10_000, 10_000, 0, 10_000, 10_000])).changed).toEqual([]);
      expect(runReadings(volumes([10_000, 10_000, 0, 0, 10_000, 10_000])).changed).toEqual([]);
    });

    it('ignores readings without a volume', () => {
      expect(runReadings(volumes([8_000, null, null, 8_000, null])).changed).toEqual([]);
    });

    it('does not start during milking', () => {
      expect(runReadings(volumes(pumpOut(8_000, 1_000), 'milking')).changed).toEqual([]);
    });

    it('drops a dip that stalls, so the later pickup starts where its own fall began', () => {
      const vs = [10_000, 10_000, 9_500, 9_000, ...Array<number>(40).fill(9_000), ...pumpOut(9_000, 1_500)];
      expect(spans(runReadings(volumes(vs)).changed, 'collection')).toEqual([[at(46), at(vs.length - 2)]]);
    });
  });

  describe('with an outage', () => {
    it('gives one collection across a gap in the middle of a pickup', () => {
      const { changed } = runReadings(trace({ outages: [[183, 200]] }));
      expect(spans(changed, 'collection')).toEqual([[at(DAY.collectionFrom), at(201)]]);
      expect(changed.filter((a) => a.kind === 'collection')).toHaveLength(2);
    });

    it('gives a collection from the last reading before the gap when the vat was emptied while offline', () => {
      expect(spans(runReadings(trace({ outages: [[170, 230]] })).changed, 'collection')).toEqual([[at(169), at(231)]]);
    });

    it('closes an open collection at the first reading after a gap that no longer falls', () => {
      expect(spans(runReadings(trace({ outages: [[188, 250]] })).changed, 'collection')).toEqual([[at(DAY.collectionFrom), at(250)]]);
    });

    it('does not call a gap with the same volume on both sides a collection', () => {
      expect(runReadings(trace({ outages: [[60, 160]] }).filter((r) => r.published_at < at(170))).changed).toEqual([]);
    });
  });

  it('keeps its state small and plain', () => {
    const { state } = runReadings(trace({ days: 2 }));
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
    expect(JSON.stringify(state).length).toBeLessThan(800);
  });
});
