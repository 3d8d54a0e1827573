import { describe, expect, it } from 'vitest';
import { stepAgitatorStop } from './agitator-stop';
import { initialLatest } from './interval';
import { at, reading, trace } from '../testing/trace';
import { runSteps, spans } from '../testing/run';

const run = (statuses: Array<0 | 1 | null>) =>
  runSteps(stepAgitatorStop, initialLatest(), statuses.map((agitator_status, i) => reading({ published_at: at(i), agitator_status, milk_volume: 5_000, temp1: 4 })));

describe('agitator stop detector', () => {
  it('runs from status 0 to the next status 1 (farmer §4), open with end null until then', () => {
    const { changed } = run([1, 0, 0, 0, 1, 1]);
    expect(changed).toEqual([
      { kind: 'agitator_stop', start: expect.objectContaining({ published_at: at(1), milk_volume: 5_000, temp1: 4 }), end: null },
      { kind: 'agitator_stop', start: expect.objectContaining({ published_at: at(1) }), end: expect.objectContaining({ published_at: at(4) }) },
    ]);
  });

  it('is not changed by null statuses', () => {
    expect(spans(run([1, null, 0, null, null, 1, null]).changed, 'agitator_stop')).toEqual([[at(2), at(5)]]);
    expect(run([null, null, null]).changed).toEqual([]);
  });

  it('records each stop separately', () => {
    expect(spans(run([0, 1, 0, 1, 1, 0, 0, 1]).changed, 'agitator_stop')).toEqual([
      [at(0), at(1)],
      [at(2), at(3)],
      [at(5), at(7)],
    ]);
  });

  it('leaves a stop open at the end of the stream', () => {
    const { state } = run([1, 0, 0]);
    expect(state.last).toMatchObject({ start: { published_at: at(1) }, end: null });
  });

  it('finds agitator stops injected in a trace', () => {
    const { changed } = runSteps(stepAgitatorStop, initialLatest(), trace({ agitatorStops: [[500, 530], [1_100, 1_101]] }));
    expect(spans(changed, 'agitator_stop')).toEqual([
      [at(500), at(530)],
      [at(1_100), at(1_101)],
    ]);
  });
});
