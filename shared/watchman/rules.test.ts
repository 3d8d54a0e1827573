import { describe, expect, it } from 'vitest';
import { WATCHMAN_DEFAULTS } from '../constants';
import {
  calibrationVerdict,
  checkAgitatorProbe,
  checkDataGaps,
  checkPlateCooling,
  checkSignal,
  checkTempAccuracy,
  checkTempProbeRange,
  classifyFarm,
  hourPoints,
  matchCollections,
  milkingEnds,
  reconcileCases,
  syncDecision,
  type HourPoint,
  type MatchedCollection,
} from './rules';
import type { WatchmanSettings } from './settings';

const S: WatchmanSettings = { ...WATCHMAN_DEFAULTS };
const HOUR = 3_600_000;
const NOW = new Date('2026-06-10T12:30:00Z');
const T0 = Date.parse('2026-06-07T12:00:00Z');

/** n healthy hourly points from T0, each overridable. */
const points = (n: number, over: (i: number) => Partial<HourPoint> = () => ({})): HourPoint[] =>
  Array.from({ length: n }, (_, i) => ({
    hour: new Date(T0 + i * HOUR).toISOString(),
    n: 60,
    strength: 70,
    quality: 80,
    probe_min: 3,
    probe_max: 20,
    stir_rpm: i % 6 === 0 ? 110 : null,
    ...over(i),
  }));

describe('classification', () => {
  const day = 86_400_000;
  it('skips a farm installed within recent_install_weeks', () => {
    expect(classifyFarm({ install_date: new Date(NOW.getTime() - 13 * day).toISOString(), lastMilkingAt: NOW.toISOString() }, NOW, S)).toBe('recent_install');
    expect(classifyFarm({ install_date: new Date(NOW.getTime() - 15 * day).toISOString(), lastMilkingAt: NOW.toISOString() }, NOW, S)).toBe('milking');
    expect(classifyFarm({ install_date: new Date(NOW.getTime() - 15 * day).toISOString(), lastMilkingAt: NOW.toISOString() }, NOW, { ...S, recent_install_weeks: 3 })).toBe('recent_install');
  });
  it('calls a farm dry after dried_off_days without a milking, and with none at all', () => {
    expect(classifyFarm({ lastMilkingAt: new Date(NOW.getTime() - 3.9 * day).toISOString() }, NOW, S)).toBe('milking');
    expect(classifyFarm({ lastMilkingAt: new Date(NOW.getTime() - 4.1 * day).toISOString() }, NOW, S)).toBe('dry');
    expect(classifyFarm({ lastMilkingAt: new Date(NOW.getTime() - 4.1 * day).toISOString() }, NOW, { ...S, dried_off_days: 5 })).toBe('milking');
    expect(classifyFarm({ lastMilkingAt: null }, NOW, S)).toBe('dry');
  });
});

describe('data points', () => {
  it('reduces messages to hourly medians, probes to their extremes, rpm to stirring readings only', () => {
    const msg = (min: number, o: Record<string, unknown>) => ({ published_at: new Date(T0 + min * 60_000).toISOString(), ...o });
    const ps = hourPoints([
      msg(0, { temp1: 4, temp2: 18, shaft_rpm: 0, agitator_status: 0, state_machine: 'storage', signal: { strength: 60, quality: 70 } }),
      msg(1, { temp1: 5, temp2: 19, shaft_rpm: 108, agitator_status: 1, state_machine: 'storage', signal: { strength: 62, quality: 72 } }),
      msg(2, { temp1: 6, temp2: 21, shaft_rpm: 104, agitator_status: 0, state_machine: 'milking', signal: { strength: 64, quality: 74 } }),
      msg(61, { temp1: 7 }),
    ]);
    expect(ps).toEqual([
      { hour: new Date(T0).toISOString(), n: 3, strength: 62, quality: 72, probe_min: 4, probe_max: 21, stir_rpm: 106 },
      { hour: new Date(T0 + HOUR).toISOString(), n: 1, strength: null, quality: null, probe_min: 7, probe_max: 7, stir_rpm: null },
    ]);
  });
  it('finds the last reading of each milking', () => {
    const states = ['storage', 'som', 'milking', 'eom', 'storage', 'milking', 'storage'];
    const ends = milkingEnds(states.map((s, i) => ({ published_at: new Date(T0 + i * 60_000).toISOString(), state_machine: s, temp1: i, temp2: 10 + i })));
    expect(ends.map((e) => [e.vat, e.inlet])).toEqual([
      [3, 13],
      [5, 15],
    ]);
  });
});

describe('signal', () => {
  it('needs minimum_data_points hours with a signal', () => {
    expect(checkSignal(points(11, () => ({ strength: 5 })), S)).toEqual({ status: 'no_data' });
    expect(checkSignal(points(12, () => ({ strength: 5 })), S).status).toBe('fault');
  });
  it('is faulty below minimum_signal_strength_alone whatever the quality', () => {
    expect(checkSignal(points(20, () => ({ strength: 14, quality: 99 })), S).status).toBe('fault');
    expect(checkSignal(points(20, () => ({ strength: 15, quality: 99 })), S).status).toBe('pass');
  });
  it('is faulty below minimum_signal_strength only with quality below minimum_signal_quality', () => {
    expect(checkSignal(points(20, () => ({ strength: 19, quality: 54 })), S).status).toBe('fault');
    expect(checkSignal(points(20, () => ({ strength: 19, quality: 55 })), S).status).toBe('pass');
    expect(checkSignal(points(20, () => ({ strength: 20, quality: 10 })), S).status).toBe('pass');
  });
  it('judges the median, so one bad hour is not a fault', () => {
    expect(checkSignal(points(20, (i) => ({ strength: i === 3 ? 1 : 70 })), S).status).toBe('pass');
  });
});

describe('temperature probe range', () => {
  it('is faulty when any hour reads outside minimum/maximum_temp_probe_temp', () => {
    expect(checkTempProbeRange(points(20), S).status).toBe('pass');
    expect(checkTempProbeRange(points(20, (i) => (i === 5 ? { probe_min: -20.5 } : {})), S).status).toBe('fault');
    expect(checkTempProbeRange(points(20, (i) => (i === 5 ? { probe_min: -20 } : {})), S).status).toBe('pass');
    expect(checkTempProbeRange(points(20, (i) => (i === 5 ? { probe_max: 100.1 } : {})), S).status).toBe('fault');
    expect(checkTempProbeRange(points(20, (i) => (i === 5 ? { probe_max: 100.1 } : {})), { ...S, maximum_temp_probe_temp: 101 }).status).toBe('pass');
  });
  it('needs minimum_data_points hours', () => {
    expect(checkTempProbeRange(points(11, () => ({ probe_max: 150 })), S)).toEqual({ status: 'no_data' });
  });
});

describe('temperature accuracy', () => {
  const end = (vat: number, inlet: number) => ({ at: NOW.toISOString(), vat, inlet });
  it('is faulty when the vat probe reads above the inlet by more than temp_accuracy_threshold at most milking ends', () => {
    expect(checkTempAccuracy([end(21, 19.4), end(21, 19.4)], S).status).toBe('fault');
    expect(checkTempAccuracy([end(20.9, 19.4), end(20.9, 19.4)], S).status).toBe('pass');
    expect(checkTempAccuracy([end(21, 19.4), end(21, 19.4)], { ...S, temp_accuracy_threshold: 2 }).status).toBe('pass');
    expect(checkTempAccuracy([end(21, 19.4), end(8, 19.4)], S).status).toBe('pass');
    expect(checkTempAccuracy([end(7, 19.4), end(8, 19.4), end(11, 19)], S).status).toBe('pass');
  });
  it('needs two milkings', () => {
    expect(checkTempAccuracy([end(30, 10)], S)).toEqual({ status: 'no_data' });
  });
});

describe('agitator probe', () => {
  it('is faulty when a stirring hour turns below the minimum threshold (stopped) or between the thresholds', () => {
    expect(checkAgitatorProbe(points(20), S).status).toBe('pass');
    expect(checkAgitatorProbe(points(20, (i) => (i === 6 ? { stir_rpm: 0 } : {})), S)).toMatchObject({ status: 'fault', evidence: expect.stringContaining('below 30 rpm') });
    expect(checkAgitatorProbe(points(20, (i) => (i === 6 ? { stir_rpm: 30 } : {})), S)).toMatchObject({ status: 'fault', evidence: expect.stringContaining('between 30 and 100') });
    expect(checkAgitatorProbe(points(20, (i) => (i === 6 ? { stir_rpm: 99 } : {})), S).status).toBe('fault');
    expect(checkAgitatorProbe(points(20, (i) => (i === 6 ? { stir_rpm: 100 } : {})), S).status).toBe('pass');
    expect(checkAgitatorProbe(points(20, (i) => (i === 6 ? { stir_rpm: 99 } : {})), { ...S, maximum_agitator_probe_fault_threshold: 90 }).status).toBe('pass');
    expect(checkAgitatorProbe(points(20, (i) => (i === 6 ? { stir_rpm: 20 } : {})), { ...S, minimum_agitator_probe_fault_threshold: 10 }).status).toBe('fault');
  });
  it('needs minimum_data_points hours', () => {
    expect(checkAgitatorProbe(points(11, () => ({ stir_rpm: 0 })), S)).toEqual({ status: 'no_data' });
  });
});

describe('data gaps', () => {
  const window = { from: new Date(T0).toISOString(), now: new Date(T0 + 30 * HOUR + 10 * 60_000) };
  it('is faulty for a clock hour without a message up to the last complete hour', () => {
    expect(checkDataGaps(points(30), window, S).status).toBe('pass');
    expect(checkDataGaps(points(30).filter((_, i) => i !== 10), window, S)).toMatchObject({ status: 'fault', evidence: expect.stringContaining('1 hours') });
    // The last complete hour (29) missing is a gap: the vat went quiet.
    expect(checkDataGaps(points(29), window, S).status).toBe('fault');
  });
  it('waits for minimum_data_points hours; no message at all is a gap', () => {
    expect(checkDataGaps(points(5).filter((_, i) => i !== 2), { ...window, now: new Date(T0 + 5 * HOUR) }, S)).toEqual({ status: 'no_data' });
    expect(checkDataGaps([], window, S).status).toBe('fault');
  });
});

describe('calibration', () => {
  const m = (i: number, collected: number, docket: number): MatchedCollection => ({ at: new Date(T0 + i * 86_400_000).toISOString(), collected, docket });
  it('matches collections to dockets within matching_pickup_minutes, each docket once', () => {
    const cs = [{ start: '2026-06-08T10:00:00.000Z', end: '2026-06-08T10:10:00.000Z', collected: 5000 }];
    expect(matchCollections(cs, [{ at: '2026-06-08T10:39:00', volume: 5000 }], S)).toHaveLength(1);
    expect(matchCollections(cs, [{ at: '2026-06-08T10:41:00', volume: 5000 }], S)).toHaveLength(0);
    expect(matchCollections(cs, [{ at: '2026-06-08T10:41:00', volume: 5000 }], { ...S, matching_pickup_minutes: 35 })).toHaveLength(1);
    expect(matchCollections([...cs, ...cs], [{ at: '2026-06-08T10:05:00', volume: 5000 }], S)).toHaveLength(1);
  });
  it('needs minimum_matched_collections', () => {
    expect(calibrationVerdict([m(0, 5000, 5000), m(1, 5000, 5000)], S)).toEqual({ status: 'unknown' });
    expect(calibrationVerdict([m(0, 5000, 5000), m(1, 5000, 5000)], { ...S, minimum_matched_collections: 2 }).status).toBe('within');
  });
  it('is out of spec when most of the latest collections are red by the highlight rule (max(100 L, 1 %))', () => {
    expect(calibrationVerdict([m(0, 5000, 5100), m(1, 5000, 5100), m(2, 5000, 5000)], S).status).toBe('out');
    expect(calibrationVerdict([m(0, 5000, 5099), m(1, 5000, 5099), m(2, 5000, 5000)], S).status).toBe('within');
    expect(calibrationVerdict([m(0, 20000, 20199), m(1, 20000, 20199), m(2, 20000, 20199)], S).status).toBe('within');
    expect(calibrationVerdict([m(0, 20000, 20200), m(1, 20000, 20200), m(2, 20000, 20200)], S).status).toBe('out');
  });
  it('judges only the latest, so a recalibrated vat comes back within spec', () => {
    const before = [m(0, 5000, 5300), m(1, 5000, 5300), m(2, 5000, 5300)];
    expect(calibrationVerdict([...before, m(3, 5000, 5000), m(4, 5000, 5000), m(5, 5000, 5010)], S).status).toBe('within');
  });
});

describe('sync', () => {
  it('turns a faulty farm off and a healthy one on, each only when its setting allows', () => {
    expect(syncDecision(true, false, S)).toBe('turn_off');
    expect(syncDecision(true, false, { ...S, auto_turn_fonterra_sync_off: false })).toBe('keep');
    expect(syncDecision(false, true, S)).toBe('turn_on');
    expect(syncDecision(false, true, { ...S, auto_turn_fonterra_sync_on: false })).toBe('keep');
    // An operator's off by hand holds against the automatic on; the automatic off still applies.
    expect(syncDecision(false, true, S, true)).toBe('keep');
    expect(syncDecision(true, false, S, true)).toBe('turn_off');
    expect(syncDecision(true, true, S)).toBe('keep');
    expect(syncDecision(false, false, S)).toBe('keep');
  });
});

describe('cases', () => {
  const open = [{ vat: 1, check: 'signal' }];
  it('opens a case per new fault, never a second for an open one, and closes one whose check passes', () => {
    const r = reconcileCases(open, [
      { vat: 1, check: 'signal', verdict: { status: 'fault', evidence: 'low' } },
      { vat: 2, check: 'signal', verdict: { status: 'fault', evidence: 'low' } },
      { vat: 2, check: 'signal', verdict: { status: 'fault', evidence: 'low' } },
    ]);
    expect(r.toOpen).toEqual([{ vat: 2, check: 'signal', evidence: 'low' }]);
    expect(r.toClose).toEqual([]);
    expect(reconcileCases(open, [{ vat: 1, check: 'signal', verdict: { status: 'pass' } }]).toClose).toEqual(open);
  });
  it('leaves a case as it is when its check has no data', () => {
    expect(reconcileCases(open, [{ vat: 1, check: 'signal', verdict: { status: 'no_data' } }])).toEqual({ toOpen: [], toClose: [] });
  });
});

describe('plate cooling', () => {
  const window = { from: '2026-06-07T12:00:00.000Z', to: '2026-06-10T12:00:00.000Z' };
  it('is faulty while a Milk warm plate alert (103) lies in the window, and passes once none does', () => {
    const warm = { type: 103, at: '2026-06-08T05:12:00.000Z' };
    expect(checkPlateCooling([warm, { ...warm, at: '2026-06-08T17:40:00.000Z' }], window)).toEqual({
      status: 'fault',
      evidence: "2 'Milk warm plate' alerts since 2026-06-07T12:00Z (first at 2026-06-08T05:12Z)",
    });
    expect(checkPlateCooling([{ ...warm, at: '2026-06-07T11:59:00.000Z' }], window)).toEqual({ status: 'pass' });
    // One raised after the run's own time (a run on an older clock, a replay) is not in its window.
    expect(checkPlateCooling([{ ...warm, at: '2026-06-10T12:01:00.000Z' }], window)).toEqual({ status: 'pass' });
  });
  it('ignores every other alert type', () => {
    expect(checkPlateCooling([101, 102, 104, 201, 301, 401].map((type) => ({ type, at: '2026-06-08T05:12:00.000Z' })), window)).toEqual({ status: 'pass' });
  });
});
