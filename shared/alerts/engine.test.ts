import { describe, expect, it } from 'vitest';
import type { StateMachine } from '../telemetry/device-message';
import type { Reading } from '../telemetry/reading';
import { at, reading } from '../telemetry/testing/trace';
import { evaluate, sweep } from './engine';
import { initialAlertState, type AlertContext, type AlertEngineState } from './engine-state';
import { DEFAULT_ALERT_SETTINGS } from './settings';
import type { NotificationType } from './types';

const VAT = { vat_size: 10_000 };
const ctx = (o: Partial<AlertContext> = {}): AlertContext => ({ vat: VAT, settings: DEFAULT_ALERT_SETTINGS, pro: true, dairyCompany: false, auto: false, ...o });

/** A storage reading at minute m (defaults: 5,000 L, 4 °C, agitator on, on mains). */
const r = (m: number, o: Partial<Reading> & { battery?: string | null } = {}) =>
  reading({ published_at: at(m), milk_volume: 5_000, temp1: 4, temp3: 15, agitator_status: 1, state_machine: 'storage', battery: '0x0B', ...o });

interface Run {
  readonly state: AlertEngineState;
  readonly raised: { type: NotificationType; minute: number; published_at: string }[];
  readonly cleared: { type: NotificationType; minute: number }[];
}

/** Runs readings through evaluate (and the sweep after each when sweepEvery is set). */
const run = (readings: readonly Reading[], c: AlertContext = ctx(), state = initialAlertState()): Run => {
  const raised: Run['raised'] = [];
  const cleared: Run['cleared'] = [];
  const minute = (iso: string) => (Date.parse(iso) - Date.parse(at(0))) / 60_000;
  for (const x of readings) {
    const step = evaluate(state, x, c);
    state = step.state;
    for (const a of step.raised) raised.push({ type: a.type, minute: minute(x.published_at), published_at: a.data.published_at });
    for (const t of step.cleared) cleared.push({ type: t, minute: minute(x.published_at) });
  }
  return { state, raised, cleared };
};
const typesOf = (x: Run) => x.raised.map((a) => a.type);
const cooling = (x: Run) => x.raised.filter((a) => a.type === 101 || a.type === 102).map((a) => [a.type, a.minute]);

/**
 * A first milking into an empty vat from minute `som` for `minutes`, then storage with the given
 * vat temperature after the milking (a function of minutes since the milking ended).
 */
const milkingTrace = (o: { until: number; som?: number; minutes?: number; afterMilking: (sinceEnd: number) => number }) => {
  const som = o.som ?? 60;
  const minutes = o.minutes ?? 90;
  const out: Reading[] = [];
  for (let m = 0; m <= o.until; m++) {
    const milking = m >= som && m < som + minutes;
    const state: StateMachine = m < som ? 'empty' : milking ? (m < som + 5 ? 'som' : m >= som + minutes - 5 ? 'eom' : 'milking') : 'storage';
    const volume = m < som ? 0 : Math.min(minutes, m - som) * 50;
    const temp1 = m < som ? 14 : milking ? 12 : o.afterMilking(m - som - minutes);
    out.push(r(m, { state_machine: state, milk_volume: volume, temp1 }));
  }
  return out;
};

describe('raw-milk cooling rules (101, 102)', () => {
  it('chiller left off through a 90-minute first milking: 102 at 2 h after the end, then 101 at 4 h after the start, each once', () => {
    // Milking 60–150; no refrigeration: the vat stays at plate-outlet temperature, 14 °C.
    const x = run(milkingTrace({ until: 60 * 12, afterMilking: () => 14 }));
    expect(cooling(x)).toEqual([
      [102, 150 + 120],
      [101, 60 + 240],
    ]);
  });

  it('a long first milking: the 6 °C deadline is 6 h after the start, and 101 comes first', () => {
    const x = run(milkingTrace({ until: 60 * 12, minutes: 300, afterMilking: () => 14 }));
    expect(cooling(x)).toEqual([
      [101, 60 + 240],
      [102, 60 + 360],
    ]);
  });

  it('chiller left off in storage: the milk warms through 6 °C, then 10 °C, raising 102 then 101 once each', () => {
    // Cooled milk at 4 °C, chiller off from minute 30: +0.05 °C a minute.
    const readings = Array.from({ length: 400 }, (_, m) => r(m, { temp1: m < 30 ? 4 : 4 + (m - 30) * 0.05 }));
    const x = run(readings);
    // Over 6 at minute 71 (6.05), held 2 minutes → 73; over 10 at 151 → 153.
    expect(x.raised.map((a) => [a.type, a.minute])).toEqual([
      [102, 73],
      [101, 153],
    ]);
    expect(x.raised[0]?.published_at).toBe(at(73));
  });

  it('cooled in time: nothing', () => {
    // 14 °C at the end of milking, falling to 4 °C within an hour.
    const x = run(milkingTrace({ until: 60 * 12, afterMilking: (s) => Math.max(4, 14 - s / 6) }));
    expect(typesOf(x)).toEqual([]);
  });

  it('no flapping: a vat hovering around 6 °C raises 102 once, and again only after a real return to normal', () => {
    const hover = Array.from({ length: 200 }, (_, m) => r(m, { temp1: m < 10 ? 4 : 6 + (m % 2 === 0 ? 0.1 : -0.1) }));
    const x = run(hover);
    expect(typesOf(x)).toEqual([102]);
    expect(x.cleared).toEqual([]);
    // Back to 5 °C for 10 minutes clears; warming again re-raises.
    const back = Array.from({ length: 15 }, (_, i) => r(200 + i, { temp1: 5 }));
    const again = Array.from({ length: 5 }, (_, i) => r(215 + i, { temp1: 7 }));
    const y = run([...back, ...again], ctx(), x.state);
    expect(y.cleared.map((c) => c.type)).toEqual([102]);
    expect(typesOf(y)).toEqual([102]);
  });

  it('a later milking may take the vat over 6 °C but never over 10 °C', () => {
    const base = milkingTrace({ until: 600, afterMilking: (s) => Math.max(4, 14 - s / 6) });
    // Second milking 600–690 into a full vat: 8 °C is fine, 10.5 °C is not.
    const later = Array.from({ length: 90 }, (_, i) =>
      r(601 + i, { state_machine: 'milking', milk_volume: 4_500 + i * 20, temp1: i < 40 ? 8 : 10.5 }),
    );
    const x = run([...base, ...later]);
    expect(x.raised.map((a) => [a.type, a.minute])).toEqual([[101, 601 + 42]]);
  });

  it('a collection empties the vat: open temperature alerts clear and the cycle starts again', () => {
    const warm = Array.from({ length: 20 }, (_, m) => r(m, { temp1: 8 }));
    const pump = Array.from({ length: 6 }, (_, i) => r(20 + i, { temp1: 8, milk_volume: 5_000 - (i + 1) * 1_000 }));
    const x = run([...warm, ...pump]);
    expect(typesOf(x)).toEqual([102, 111]);
    expect(x.cleared.map((c) => c.type)).toContain(102);
  });
});

describe('power outage (301)', () => {
  const cut = (offMinutes: number, seconds = 0) => {
    // Readings every 30 s; mains off from minute 10 for offMinutes:seconds.
    const end = 10 * 60 + offMinutes * 60 + seconds;
    return Array.from({ length: 60 }, (_, i) => {
      const sec = i * 30;
      return reading({ published_at: at(0, sec), milk_volume: 5_000, temp1: 4, agitator_status: 1, state_machine: 'storage', battery: sec >= 600 && sec < end ? '0x0A' : '0x0B' });
    });
  };
  it('a cut of 4:59 raises nothing', () => expect(typesOf(run(cut(4, 59)))).toEqual([]));
  it('a cut of 6:00 raises 301 once, at 5 minutes', () => {
    const x = run(cut(6));
    expect(typesOf(x)).toEqual([301]);
    expect(x.raised[0]?.published_at).toBe(at(15));
    expect(x.cleared.map((c) => c.type)).toEqual([301]);
  });
  it('mains flickering each minute never adds up to an outage', () => {
    const flicker = Array.from({ length: 60 }, (_, m) => r(m, { battery: m % 2 === 0 ? '0x0A' : '0x0B' }));
    expect(typesOf(run(flicker))).toEqual([]);
  });
  it('the sweep raises 301 when the device falls silent on battery', () => {
    const x = run([r(0), r(1, { battery: '0x0A' }), r(2, { battery: '0x0A' })]);
    expect(sweep(x.state, new Date(at(5)), ctx()).raised).toEqual([]);
    expect(sweep(x.state, new Date(at(6)), ctx()).raised.map((a) => a.type)).toEqual([301]);
  });
});

describe('other system alerts', () => {
  it('103 when the plate outlet is over the too-warm setting for 10 unbroken minutes of a milking', () => {
    const readings = Array.from({ length: 30 }, (_, m) => r(m, { state_machine: 'milking', temp3: m >= 5 ? 25 : 16, temp1: 9 }));
    const x = run(readings);
    expect(x.raised.map((a) => [a.type, a.minute])).toEqual([[103, 15]]);
    // An outlet wavering about the setting (18.2, 17.9 …) on a warm day is not a fault.
    const wavering = Array.from({ length: 60 }, (_, m) => r(m, { state_machine: 'milking', temp3: m % 3 === 0 ? 17.9 : 18.2, temp1: 9 }));
    expect(typesOf(run(wavering))).toEqual([]);
  });

  it('104 when the milk is under the too-cold setting for 10 minutes', () => {
    const x = run(Array.from({ length: 30 }, (_, m) => r(m, { temp1: m >= 3 ? 1.5 : 3 })));
    expect(x.raised.map((a) => [a.type, a.minute])).toEqual([[104, 13]]);
  });

  it('201 once when the volume passes 80 % of the vat, with hysteresis', () => {
    const vols = [7_900, 8_050, 8_100, 8_150, 7_950, 8_100, 8_200, 8_300];
    const x = run(vols.map((v, m) => r(m, { milk_volume: v })));
    expect(x.raised.map((a) => [a.type, a.minute])).toEqual([[201, 3]]);
    expect(x.raised.length).toBe(1);
  });

  it('201 follows the farm threshold', () => {
    const settings = { ...DEFAULT_ALERT_SETTINGS, milk_volume: 60 };
    const x = run([0, 1, 2, 3].map((m) => r(m, { milk_volume: 6_500 })), ctx({ settings }));
    expect(typesOf(x)).toEqual([201]);
  });

  it('401 after 40 minutes of agitator stopped with milk in the vat; its normal 25-minute rest does not', () => {
    const rest = run(Array.from({ length: 60 }, (_, m) => r(m, { agitator_status: m % 30 < 25 ? 0 : 1 })));
    expect(typesOf(rest)).toEqual([]);
    const stuck = run(Array.from({ length: 60 }, (_, m) => r(m, { agitator_status: 0 })));
    expect(stuck.raised.map((a) => [a.type, a.minute])).toEqual([[401, 40]]);
  });

  it('OFFLINE counts from when the last reading arrived: a device catching up on old readings is online', () => {
    // Readings of an hour ago arriving now.
    const arrived = (m: number) => ({ now: () => new Date(at(60 + m)) });
    let state = initialAlertState();
    for (const m of [0, 1, 2]) state = evaluate(state, r(m), ctx(), arrived(m)).state;
    expect(sweep(state, new Date(at(63)), ctx()).raised).toEqual([]);
    expect(sweep(state, new Date(at(62 + 16)), ctx()).raised.map((a) => a.type)).toEqual([502]);
  });

  it('502 OFFLINE from the sweep after 15 minutes without data, then 501 ONLINE on the next reading', () => {
    const x = run([r(0), r(1)]);
    expect(sweep(x.state, new Date(at(16)), ctx()).raised).toEqual([]);
    const off = sweep(x.state, new Date(at(17)), ctx());
    expect(off.raised.map((a) => a.type)).toEqual([502]);
    expect(sweep(off.state, new Date(at(30)), ctx()).raised).toEqual([]);
    const back = run([r(40)], ctx(), off.state);
    expect(typesOf(back)).toEqual([501]);
    expect(back.cleared.map((c) => c.type)).toEqual([502]);
  });

  it('110 SlowCool when the vat is still over the slow temperature at the slow period after milking (Pro)', () => {
    const trace = milkingTrace({ until: 300, afterMilking: (s) => Math.max(4, 14 - s / 10) });
    const x = run(trace);
    // 14 − 45/10 = 9.5 °C > 8 at end + 45 min.
    expect(x.raised.map((a) => [a.type, a.minute])).toEqual([[110, 150 + 45]]);
    expect(typesOf(run(trace, ctx({ pro: false })))).toEqual([]);
  });

  it('601 when a milking differs from the usual duration by more than the milking duration setting', () => {
    const milking = (start: number, minutes: number) =>
      Array.from({ length: minutes + 30 }, (_, i) => r(start + i, { state_machine: i < minutes ? 'milking' : 'storage', temp1: 4 }));
    const x = run([...milking(0, 90), ...milking(200, 90), ...milking(400, 95), ...milking(600, 150)]);
    expect(x.raised.map((a) => [a.type, a.minute])).toEqual([[601, 750]]);
  });

  it('701 when a collection runs over the collection duration, 111 when it ends (pick-up)', () => {
    const full = [r(0, { milk_volume: 9_000 })];
    // Tanker stalls: 9,000 → 5,000 in 4 minutes, then nothing for 2 hours, then empty.
    const pump = [1, 2, 3, 4].map((i) => r(i, { milk_volume: 9_000 - i * 1_000 }));
    const stall = Array.from({ length: 120 }, (_, i) => r(5 + i, { milk_volume: 5_000 }));
    const empty = [r(126, { milk_volume: 0, state_machine: 'empty' })];
    const x = run([...full, ...pump, ...stall, ...empty]);
    expect(x.raised.map((a) => [a.type, a.minute])).toEqual([
      [701, 62],
      [111, 126],
    ]);
  });

  it('dairy-company alerts from the quality estimate: one per band as it rises, none on other farms', () => {
    const q = (v: number, alert = 0) => ({ currentEstCFU: v, pickupEstCFU: v, alert, agitator: { timeAgitatorStop: 30, timeInVat: 600 } });
    const readings = [4.0, 4.5, 4.6, 4.9, 5.5, 6.5, 6.4].map((v, m) => r(m, { quality: q(v) }));
    expect(typesOf(run(readings, ctx({ dairyCompany: true })))).toEqual([1001, 1002, 1003, 1004]);
    expect(typesOf(run(readings, ctx({ dairyCompany: false })))).toEqual([]);
    const ag = evaluate(initialAlertState(), r(0, { quality: q(4, 2) }), ctx({ dairyCompany: true }));
    expect(ag.raised[0]).toMatchObject({ type: 1102, quality: { agitator_outage_percent: 5 } });
  });

  it('1201 late milking on dairy-company farms: a milking ending over an hour later than the session usually does', () => {
    // Three mornings ending at 07:00 UTC, then one ending at 08:30.
    const day = 1440;
    const milking = (d: number, endMinute: number) =>
      Array.from({ length: 120 }, (_, i) => r(d * day + endMinute - 90 + i, { state_machine: i < 90 ? 'milking' : 'storage' }));
    const readings = [...milking(0, 420), ...milking(1, 420), ...milking(2, 420), ...milking(3, 510)];
    const state = { value: initialAlertState() };
    const raised = readings.flatMap((x) => {
      const step = evaluate(state.value, x, ctx({ dairyCompany: true }));
      state.value = step.state;
      return step.raised.filter((a) => a.type === 1201);
    });
    expect(raised).toHaveLength(1);
    expect(raised[0]?.lateMilking).toEqual({ end_time_current: at(3 * day + 510), end_time_schedule: at(3 * day + 420) });
    expect(typesOf(run(readings, ctx({ dairyCompany: false }))).filter((t) => t === 1201)).toEqual([]);
  });

  it('1201 from the imported milking window: its session is late after end of milking plus the buffer, in farm time; other sessions keep the learned rule', () => {
    const day = 1440;
    const milking = (d: number, endMinute: number) =>
      Array.from({ length: 120 }, (_, i) => r(d * day + endMinute - 90 + i, { state_machine: i < 90 ? 'milking' : 'storage' }));
    // at(0) is midnight UTC; the farm is on UTC+13 (Pacific/Auckland daylight time, March 2025): 19:00 UTC is 08:00 local.
    const zone = 'Pacific/Auckland';
    const local8 = 19 * 60;
    const window = { end_of_milking: '08:00', buffer_duration: 30, timezone: zone };
    const lateOf = (readings: Reading[], c: AlertContext) => {
      const state = { value: initialAlertState() };
      return readings.flatMap((x) => {
        const step = evaluate(state.value, x, c);
        state.value = step.state;
        return step.raised.filter((a) => a.type === 1201);
      });
    };
    // First day already: 08:29 local is within the buffer, 08:31 is late; no history needed.
    expect(lateOf(milking(0, local8 + 29), ctx({ dairyCompany: true, milkingWindow: window }))).toEqual([]);
    const late = lateOf(milking(0, local8 + 31), ctx({ dairyCompany: true, milkingWindow: window }));
    expect(late.map((a) => a.lateMilking)).toEqual([{ end_time_current: at(local8 + 31), end_time_schedule: at(local8) }]);
    // An afternoon milking (16:00 local) is another session: the learned rule, which needs history.
    expect(lateOf(milking(0, local8 + 8 * 60), ctx({ dairyCompany: true, milkingWindow: window }))).toEqual([]);
    // Not a dairy-company farm: no 1201 at all.
    expect(lateOf(milking(0, local8 + 90), ctx({ dairyCompany: false, milkingWindow: window }))).toEqual([]);
  });

  it('a reading older than the last one evaluated changes nothing (late readings are old news)', () => {
    const x = run([r(10, { temp1: 8 }), r(11, { temp1: 8 }), r(12, { temp1: 8 })]);
    const late = evaluate(x.state, r(5, { temp1: 20 }), ctx());
    expect(late.state).toBe(x.state);
    expect(late.raised).toEqual([]);
  });

  it('every raised alert records the reading that triggered it', () => {
    const x = evaluate(run([r(0, { temp1: 8 }), r(1, { temp1: 8 })]).state, r(2, { temp1: 8.5, milk_volume: 4_321, agitator_status: 0 }), ctx());
    expect(x.raised[0]).toMatchObject({ type: 102, data: { published_at: at(2), temp1: 8.5, milk_volume: 4_321, agitator_status: 0 } });
  });

  it('the state is plain JSON', () => {
    const x = run(milkingTrace({ until: 400, afterMilking: () => 14 }));
    expect(JSON.parse(JSON.stringify(x.state))).toEqual(x.state);
  });
});

describe('Vat-Man Auto controller (112 VatControl status unknown, 113 ManualOverride, 114 OffPosition)', () => {
  const auto = ctx({ auto: true });
  /** Storage readings minute 0..until with the controller status of `status(m)`. */
  const controller = (until: number, status: (m: number) => Reading['controller_status'], o: (m: number) => Partial<Reading> = () => ({})) =>
    Array.from({ length: until + 1 }, (_, m) => r(m, { controller_status: status(m), ...o(m) }));
  const of = (x: Run, ...types: NotificationType[]) => x.raised.filter((a) => types.includes(a.type)).map((a) => [a.type, a.minute]);

  it('in auto all along: nothing', () => {
    expect(of(run(controller(120, () => 'auto'), auto), 112, 113, 114)).toEqual([]);
  });

  it('manual override held 5 minutes with milk in the vat: 113 once, raised at minute 5 of it; again only after it returned to auto', () => {
    const x = run(controller(200, (m) => ((m >= 10 && m < 60) || m >= 100 ? 'manual' : 'auto')), auto);
    expect(of(x, 112, 113, 114)).toEqual([
      [113, 15],
      [113, 105],
    ]);
    expect(x.cleared.filter((c) => c.type === 113).map((c) => c.minute)).toEqual([60]);
  });

  it('a flick to manual or off for under 5 minutes (a test) raises nothing', () => {
    expect(of(run(controller(60, (m) => (m >= 10 && m < 14 ? 'manual' : m >= 30 && m < 34 ? 'off' : 'auto')), auto), 113, 114)).toEqual([]);
  });

  it('switched off with milk in the vat: 114 once; manual then off is 113 then 114', () => {
    expect(of(run(controller(90, (m) => (m >= 20 ? 'off' : 'auto')), auto), 112, 113, 114)).toEqual([[114, 25]]);
    expect(of(run(controller(90, (m) => (m < 10 ? 'auto' : m < 40 ? 'manual' : 'off')), auto), 113, 114)).toEqual([
      [113, 15],
      [114, 45],
    ]);
  });

  it('off or manual with an empty vat (after a collection, washing) is no alert; milk arriving with the switch still off is', () => {
    const x = run(
      controller(
        120,
        () => 'off',
        (m) => (m < 60 ? { milk_volume: 0, state_machine: 'empty' } : {}),
      ),
      auto,
    );
    expect(of(x, 113, 114)).toEqual([[114, 65]]);
  });

  it('no status on regular readings for 10 minutes: 112 once, cleared when a status comes back', () => {
    const x = run(controller(120, (m) => (m >= 30 && m < 80 ? null : 'auto')), auto);
    expect(of(x, 112, 113, 114)).toEqual([[112, 40]]);
    expect(x.cleared.filter((c) => c.type === 112).map((c) => c.minute)).toEqual([80]);
  });

  it("the controller saying 'unknown' is the same as saying nothing", () => {
    expect(of(run(controller(60, (m) => (m >= 10 ? 'unknown' : 'auto')), auto), 112)).toEqual([[112, 20]]);
  });

  it('event and status messages without a status neither raise nor clear 112', () => {
    const x = run(
      controller(
        60,
        (m) => (m % 2 === 0 ? null : 'auto'),
        (m) => (m % 2 === 0 ? { message_type: 'EM' } : {}),
      ),
      auto,
    );
    expect(of(x, 112)).toEqual([]);
  });

  it('only Vat-Man Auto farms: a Pro or Lite vat without a controller raises none of them', () => {
    expect(of(run(controller(120, () => null)), 112, 113, 114)).toEqual([]);
    expect(of(run(controller(120, () => 'off')), 112, 113, 114)).toEqual([]);
  });
});
