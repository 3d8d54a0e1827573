import { describe, expect, it } from 'vitest';
import { stepBatteryOff } from './battery-off';
import { initialLatest } from './interval';
import { at, reading, trace } from '../testing/trace';
import { runSteps, spans } from '../testing/run';

const run = (batteries: Array<string | null>) =>
  runSteps(stepBatteryOff, initialLatest(), batteries.map((battery, i) => reading({ published_at: at(i), battery })));

describe('battery-off detector', () => {
  it("reads '0x0B' (odd) as on mains and '0x0A' (even) as off: off from the first '0x0A' to the next '0x0B'", () => {
    const { changed } = run(['0x0B', '0x0A', '0x0A', '0x0B', '0x0B']);
    expect(changed.map((a) => [a.start.published_at, a.end?.published_at ?? null])).toEqual([
      [at(1), null],
      [at(1), at(3)],
    ]);
  });

  it('takes registers with or without 0x, in either case, of any width', () => {
    expect(spans(run(['b', '0xfe', '7', '10', '0x0000000F']).changed, 'battery_off')).toEqual([
      [at(1), at(2)],
      [at(3), at(4)],
    ]);
  });

  it('is not changed by readings without a battery register', () => {
    const { changed, state } = run(['0x0B', null, '0x0A', null, null, '0x0B']);
    expect(spans(changed, 'battery_off')).toEqual([[at(2), at(5)]]);
    expect(state.last?.end?.published_at).toBe(at(5));
    expect(run([null, null]).changed).toEqual([]);
  });

  it('stays open while the mains is off', () => {
    const { changed, state } = run(['0x0B', '0x0A', '0x0C', '0x0E']);
    expect(changed).toHaveLength(1);
    expect(state.last).toMatchObject({ kind: 'battery_off', end: null, start: { published_at: at(1) } });
  });

  it('finds a battery-off stretch in a trace', () => {
    const { changed } = runSteps(stepBatteryOff, initialLatest(), trace({ batteryOff: [[600, 642]] }));
    expect(spans(changed, 'battery_off')).toEqual([[at(600), at(642)]]);
  });

  it('starts at the first reading of a stream when the mains is already off', () => {
    expect(run(['0x0A', '0x0B']).changed.at(-1)).toMatchObject({ start: { published_at: at(0) }, end: { published_at: at(1) } });
  });
});
