import { describe, expect, it } from 'vitest';
import { CIP_END_CELSIUS, CIP_START_CELSIUS, stepCip } from './cip';
import { initialLatest } from './interval';
import { at, DAY, reading, trace } from '../testing/trace';
import { runSteps, spans } from '../testing/run';

const run = (temps: Array<number | null>) =>
  runSteps(stepCip, initialLatest(), temps.map((temp5, i) => reading({ published_at: at(i), temp5 })));

describe('CIP detector', () => {
  it('starts above the hot threshold and ends below the lower one', () => {
    expect(spans(run([18, 65, 75, 70, 25, 18]).changed, 'cip')).toEqual([[at(1), at(4)]]);
  });

  it('uses strict thresholds: exactly 40 °C does not start, exactly 30 °C does not end', () => {
    expect(run([CIP_START_CELSIUS, CIP_START_CELSIUS]).changed).toEqual([]);
    expect(spans(run([40.1, CIP_END_CELSIUS, CIP_END_CELSIUS, 29.9]).changed, 'cip')).toEqual([[at(0), at(3)]]);
  });

  it('keeps one wash one activity when the line hovers between the thresholds (hysteresis)', () => {
    const { changed } = run([18, 60, 38, 45, 35, 62, 31, 41, 20]);
    expect(spans(changed, 'cip')).toEqual([[at(1), at(8)]]);
    expect(changed).toHaveLength(2);
  });

  it('does not start on a warm line below the hot threshold', () => {
    expect(run([25, 35, 39.9, 36, 20]).changed).toEqual([]);
  });

  it('is not changed by readings without temp5', () => {
    expect(spans(run([null, 70, null, null, 20, null]).changed, 'cip')).toEqual([[at(1), at(4)]]);
  });

  it('finds the vat wash in a day trace', () => {
    expect(spans(runSteps(stepCip, initialLatest(), trace()).changed, 'cip')).toEqual([[at(DAY.cipFrom), at(DAY.cipTo)]]);
  });
});
