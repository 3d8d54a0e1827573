import { describe, expect, it } from 'vitest';
import type { StateMachine } from '../device-message';
import { initialLatest } from './interval';
import { stepMilking } from './milking';
import { at, DAY, reading, trace, TRACE_VAT } from '../testing/trace';
import { runSteps, spans } from '../testing/run';

const run = (states: Array<StateMachine | null>, volume = 0) =>
  runSteps(stepMilking, initialLatest(), states.map((state_machine, i) => reading({ published_at: at(i), state_machine, milk_volume: volume + i * 10 })));

describe('milking detector', () => {
  it('runs from the change into som to the first non-milking state; som, milking and eom all count', () => {
    const { changed } = run(['empty', 'som', 'milking', 'milking', 'eom', 'storage', 'storage']);
    expect(changed.map((a) => [a.start.published_at, a.end?.published_at ?? null])).toEqual([
      [at(1), null],
      [at(1), at(5)],
    ]);
  });

  it('starts on a change straight into milking or eom too', () => {
    expect(spans(run(['storage', 'milking', 'storage', 'eom', 'empty']).changed, 'milking')).toEqual([
      [at(1), at(2)],
      [at(3), at(4)],
    ]);
  });

  it('ignores readings without a state', () => {
    expect(spans(run(['storage', null, 'som', null, 'milking', null, 'storage', null]).changed, 'milking')).toEqual([[at(2), at(6)]]);
    expect(run([null, null]).changed).toEqual([]);
  });

  it('ends at startup (a reboot mid-milking) and a new milking starts after it', () => {
    expect(spans(run(['som', 'milking', 'startup', 'milking', 'storage']).changed, 'milking')).toEqual([
      [at(0), at(2)],
      [at(3), at(4)],
    ]);
  });

  it('records a stream that starts mid-milking from its first reading', () => {
    expect(spans(run(['milking', 'eom', 'storage']).changed, 'milking')).toEqual([[at(0), at(2)]]);
  });

  describe('the 5% rule at the start (farmer §4)', () => {
    const startVolume = (litres: number) =>
      runSteps(stepMilking, initialLatest(), [
        reading({ published_at: at(0), state_machine: 'empty', milk_volume: litres }),
        reading({ published_at: at(1), state_machine: 'som', milk_volume: litres, temp1: 9 }),
      ]).state.last?.start;

    it('treats a start volume below 5% of the vat size as 0', () => {
      expect(TRACE_VAT.vat_size * 0.05).toBe(1_000);
      expect(startVolume(999)).toMatchObject({ milk_volume: 0, temp1: 9 });
      expect(startVolume(40)?.milk_volume).toBe(0);
    });

    it('keeps a start volume of 5% and above', () => {
      expect(startVolume(1_000)?.milk_volume).toBe(1_000);
      expect(startVolume(6_500)?.milk_volume).toBe(6_500);
    });

    it('leaves an unknown start volume unknown', () => {
      expect(startVolume(null as unknown as number)?.milk_volume).toBeNull();
    });

    it('does not apply to the end volume', () => {
      const { changed } = run(['empty', 'som', 'storage'], 100);
      expect(changed.at(-1)).toMatchObject({ start: { milk_volume: 0 }, end: { milk_volume: 120 } });
    });
  });

  it('finds both milkings of a day trace with their start and end volumes', () => {
    const { changed } = runSteps(stepMilking, initialLatest(), trace());
    expect(spans(changed, 'milking')).toEqual([
      [at(DAY.morningMilking.som), at(DAY.morningMilking.end)],
      [at(DAY.afternoonMilking.som), at(DAY.afternoonMilking.end)],
    ]);
    const [morning, afternoon] = changed.filter((a) => a.end !== null);
    expect(morning?.start.milk_volume).toBe(0);
    expect(morning?.end?.milk_volume).toBeCloseTo(5_950, -1);
    expect(afternoon?.start.milk_volume).toBeCloseTo(5_950, -1);
    expect(afternoon?.end?.milk_volume).toBeCloseTo(11_900, -1);
  });
});
