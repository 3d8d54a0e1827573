import { describe, expect, it } from 'vitest';
import { activityId, type Activity } from './activities';
import {
  detect,
  detectAll,
  detectorStateSchema,
  initialDetectorState,
  latestActivities,
  OutOfOrderReadingError,
  parseDetectorState,
  type DetectorState,
} from './detect';
import { telemetryMessageSchema } from './device-message';
import { toReading, type Reading } from './reading';
import { at, DAY, reading, trace, TRACE_VAT } from './testing/trace';
import { spans } from './testing/run';

/** A day with everything: an outage, a battery-off stretch and an agitator stop on top of the routine. */
const busyDay = (days = 1): Reading[] =>
  trace({ days, outages: [[600, 640]], batteryOff: [[700, 730]], agitatorStops: [[1_100, 1_125]], noise: 30 });

const deepFreeze = <T>(o: T): T => {
  if (o !== null && typeof o === 'object') {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
};

describe('detect', () => {
  it('finds every activity of a busy day', () => {
    const { changed } = detectAll(initialDetectorState(), busyDay(), TRACE_VAT);
    expect({
      milking: spans(changed, 'milking'),
      collection: spans(changed, 'collection'),
      cip: spans(changed, 'cip'),
      agitator_stop: spans(changed, 'agitator_stop'),
      outage: spans(changed, 'outage'),
      battery_off: spans(changed, 'battery_off'),
      storage: spans(changed, 'storage'),
    }).toEqual({
      milking: [
        [at(DAY.morningMilking.som), at(DAY.morningMilking.end)],
        [at(DAY.afternoonMilking.som), at(DAY.afternoonMilking.end)],
      ],
      collection: [[at(DAY.collectionFrom), at(188)]],
      cip: [[at(DAY.cipFrom), at(DAY.cipTo)]],
      agitator_stop: [[at(1_100), at(1_125)]],
      outage: [[at(599), at(640)]],
      battery_off: [[at(700), at(730)]],
      storage: [[at(0), at(188)]],
    });
  });

  it('reports an activity open (end null) when it starts and again with its end, under the same id', () => {
    const { changed, state } = detectAll(initialDetectorState(), busyDay(), TRACE_VAT);
    const byId = new Map<string, Activity[]>();
    for (const a of changed) byId.set(activityId('dev1', a), [...(byId.get(activityId('dev1', a)) ?? []), a]);
    for (const [id, writes] of byId) {
      const kind = id.split('~')[1];
      const expected = kind === 'outage' ? [false] : kind === 'storage' && writes.length === 1 ? [true] : [true, false];
      expect(writes.map((w) => w.end === null), id).toEqual(expected);
      expect(new Set(writes.map((w) => JSON.stringify(w.start))).size, id).toBe(1);
    }
    // The one storage still open is the one the afternoon milking did not restart.
    expect(latestActivities(state).storage).toMatchObject({ start: { published_at: at(DAY.morningMilking.som) }, end: null });
  });

  it('gives the latest activity of each kind, open or closed', () => {
    const { state } = detectAll(initialDetectorState(), busyDay(), TRACE_VAT);
    const latest = latestActivities(state);
    expect(Object.keys(latest).sort()).toEqual(['agitator_stop', 'battery_off', 'cip', 'collection', 'milking', 'outage', 'storage']);
    expect(latest.milking).toMatchObject({ start: { published_at: at(DAY.afternoonMilking.som) }, end: { published_at: at(DAY.afternoonMilking.end) } });
    expect(latest.collection?.end?.published_at).toBe(at(188));
    expect(latest.cip?.start.published_at).toBe(at(DAY.cipFrom));
    expect(latestActivities(initialDetectorState())).toEqual({});
  });

  describe('determinism (what the ingest relies on when it replays)', () => {
    const readings = busyDay(2);
    const whole = detectAll(initialDetectorState(), readings, TRACE_VAT);

    it.each([1, 180, 184, 187, 188, 205, 300, 350, 599, 600, 715, 1_110, 1_439, 1_620, readings.length - 1])(
      'processing in one go equals two halves split at reading %i with the state through JSON',
      (split) => {
        const first = detectAll(initialDetectorState(), readings.slice(0, split), TRACE_VAT);
        const stored: unknown = JSON.parse(JSON.stringify(first.state));
        const resumed = parseDetectorState(stored);
        expect(resumed).toBeDefined();
        const second = detectAll(resumed as DetectorState, readings.slice(split), TRACE_VAT);
        expect(JSON.stringify([...first.changed, ...second.changed])).toBe(JSON.stringify(whole.changed));
        expect(JSON.stringify(second.state)).toBe(JSON.stringify(whole.state));
      },
    );

    it('survives a JSON round trip after every single reading', () => {
      let state = initialDetectorState();
      const changed: Activity[] = [];
      for (const r of readings) {
        const step = detect(JSON.parse(JSON.stringify(state)) as DetectorState, r, TRACE_VAT);
        state = step.state;
        changed.push(...step.changed);
      }
      expect(changed).toEqual(whole.changed);
      expect(state).toEqual(whole.state);
    });

    it('gives the same answer twice and never changes the state it is given', () => {
      let state = deepFreeze(initialDetectorState());
      for (const r of readings.slice(0, 400)) {
        const a = detect(state, r, TRACE_VAT);
        expect(detect(state, r, TRACE_VAT)).toEqual(a);
        state = deepFreeze(a.state);
      }
    });
  });

  describe('the state', () => {
    it('stays well under 4 KB, even with long decimals in every figure', () => {
      const long = (x: number | null) => (x === null ? null : x + 0.123456789012345);
      const readings = busyDay(2).map((r) => ({ ...r, temp1: long(r.temp1), temp2: long(r.temp2), temp3: long(r.temp3), milk_volume: long(r.milk_volume) }));
      let state = initialDetectorState();
      let largest = 0;
      for (const r of readings) {
        state = detect(state, r, TRACE_VAT).state;
        largest = Math.max(largest, JSON.stringify(state).length);
      }
      expect(largest).toBeLessThan(3_000);
    });

    it('is versioned and parses back; another version or shape does not', () => {
      const { state } = detectAll(initialDetectorState(), busyDay(), TRACE_VAT);
      expect(state.v).toBe(1);
      expect(detectorStateSchema.parse(JSON.parse(JSON.stringify(state)))).toEqual(state);
      expect(parseDetectorState(JSON.parse(JSON.stringify(initialDetectorState())))).toEqual(initialDetectorState());
      expect(parseDetectorState({ ...state, v: 2 })).toBeUndefined();
      expect(parseDetectorState({ ...state, milking: {} })).toBeUndefined();
      expect(parseDetectorState(null)).toBeUndefined();
      expect(parseDetectorState('{"v":1}')).toBeUndefined();
    });
  });

  describe('reading order', () => {
    const first = detect(initialDetectorState(), reading({ published_at: at(10), agitator_status: 0 }), TRACE_VAT);

    it('treats a reading at the same instant as the last (a redelivered message) as a no-op', () => {
      const again = detect(first.state, reading({ published_at: at(10), agitator_status: 1 }), TRACE_VAT);
      expect(again.changed).toEqual([]);
      expect(again.state).toBe(first.state);
    });

    it('compares instants, not spellings', () => {
      expect(detect(first.state, reading({ published_at: '2025-03-10T00:10:00Z', agitator_status: 1 }), TRACE_VAT).changed).toEqual([]);
    });

    it('throws on a reading older than the last stepped: the ingest must replay from an earlier state', () => {
      expect(() => detect(first.state, reading({ published_at: at(9) }), TRACE_VAT)).toThrow(OutOfOrderReadingError);
      expect(() => detect(first.state, reading({ published_at: 'not a date' }), TRACE_VAT)).toThrow(OutOfOrderReadingError);
    });
  });

  it('works on readings made from device messages the way the ingest makes them', () => {
    const message = (minute: number, battery: string, agitator_status: 0 | 1) =>
      toReading(
        telemetryMessageSchema.parse({ published_at: at(minute), milk_level: 900, temp1: 4.2, agitator_status, state_machine: 'storage', battery: { status: battery } }),
        TRACE_VAT,
      );
    const { changed, state } = detectAll(
      initialDetectorState(),
      [message(0, '0x0B', 1), message(1, '0x0A', 0), message(2, '0x0A', 0), message(3, '0x0B', 1)],
      TRACE_VAT,
    );
    expect(spans(changed, 'battery_off')).toEqual([[at(1), at(3)]]);
    expect(spans(changed, 'agitator_stop')).toEqual([[at(1), at(3)]]);
    expect(latestActivities(state).storage?.start).toMatchObject({ published_at: at(0), temp1: 4.2 });
    expect(latestActivities(state).storage?.start.milk_volume).toBeGreaterThan(1_000);
  });
});
