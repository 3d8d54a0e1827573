import { describe, expect, it } from 'vitest';
import { initialLatest } from './interval';
import { stepOutage } from './outage';
import { at, reading, trace } from '../testing/trace';
import { runSteps, spans } from '../testing/run';

const run = (times: string[]) => runSteps(stepOutage, initialLatest(), times.map((published_at) => reading({ published_at, milk_volume: 100, temp1: 4 })));

describe('outage detector', () => {
  it('is not an outage when the gap is exactly 15 minutes', () => {
    expect(run([at(0), at(15)]).changed).toEqual([]);
  });

  it('is an outage when the gap is 15 minutes and 1 second, from the earlier reading to the later, closed at once', () => {
    const { changed, state } = run([at(0), at(15, 1)]);
    expect(changed).toEqual([
      {
        kind: 'outage',
        start: { published_at: at(0), milk_volume: 100, temp1: 4, temp2: null, temp3: null },
        end: { published_at: at(15, 1), milk_volume: 100, temp1: 4, temp2: null, temp3: null },
      },
    ]);
    expect(state.last).toEqual(changed[0]);
  });

  it('finds nothing in a day of one-minute readings', () => {
    expect(runSteps(stepOutage, initialLatest(), trace()).changed).toEqual([]);
  });

  it('finds each gap over 15 minutes in a trace, and not the shorter ones', () => {
    const { changed, state } = runSteps(stepOutage, initialLatest(), trace({ outages: [[100, 115], [500, 516], [800, 1000]] }));
    // [100, 115) missing: 99 → 115 is a 16-minute gap; [500, 516): 499 → 516 is 17; [800, 1000): 799 → 1000.
    expect(spans(changed, 'outage')).toEqual([
      [at(99), at(115)],
      [at(499), at(516)],
      [at(799), at(1000)],
    ]);
    expect(state.last?.start.published_at).toBe(at(799));
  });

  it('keeps a 14-minute hole (15-minute gap) out', () => {
    expect(runSteps(stepOutage, initialLatest(), trace({ outages: [[100, 114]] })).changed).toEqual([]);
  });

  it('has nothing to compare the first reading of a stream with', () => {
    expect(run([at(0)]).changed).toEqual([]);
  });
});
