import { describe, expect, it } from 'vitest';
import { telemetryMessageSchema, isOnMains, type TelemetryMessageInput } from '../../shared/telemetry/device-message';
import { levelFromRadar, volumeFromLevel, type VatConfig } from '../../shared/telemetry/reading';
import type { FaultKind } from './faults';
import { createVatModel, type VatModel } from './vat-model';
import { localTime, type VatModelConfig } from './vat-state';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const TZ = 'Pacific/Auckland';

const vatOf = (size: number, diameter: number, height: number): VatConfig => ({
  vat_size: size,
  vat_diameter: diameter,
  vat_max_height: height,
  wedgeHeight: 60,
  vat_volume_offset: 0,
});
const VAT_9100 = vatOf(9100, 2337, 2438);

const model = (over: Partial<VatModelConfig> = {}): VatModel =>
  createVatModel({ device: 'vm-test-1', farmKey: 'TEST1', timezone: TZ, vat: VAT_9100, seed: 7, ...over });

interface Sample {
  readonly t: number;
  readonly m: TelemetryMessageInput | undefined;
  readonly litres: number;
}

/** Steps the model minute by minute from `from` for `minutes`, calling `before` ahead of each step. */
const run = (vm: VatModel, from: number, minutes: number, before?: (t: number, i: number) => void): Sample[] => {
  const out: Sample[] = [];
  let t = vm.nextTime(from);
  for (let i = 0; i < minutes; i += 1, t += MINUTE) {
    before?.(t, i);
    const m = vm.step(t);
    out.push({ t, m, litres: vm.volume() });
  }
  return out;
};

/** Midnight farm time, a few days into a simulation that started 2 days earlier. */
const START = Date.parse('2026-06-01T12:00:00Z'); // 00:00 NZST on 2 June

const msgs = (s: readonly Sample[]) => s.flatMap((x) => (x.m ? [{ ...x, m: x.m }] : []));

const milkings = (samples: readonly Sample[]) => {
  const out: { start: number; end: number; startIdx: number; endIdx: number }[] = [];
  samples.forEach((x, i) => {
    if (x.m?.state_machine === 'som') out.push({ start: x.t, end: Number.NaN, startIdx: i, endIdx: -1 });
    if (x.m?.state_machine === 'eom') {
      const last = out[out.length - 1];
      if (last && Number.isNaN(last.end)) Object.assign(last, { end: x.t, endIdx: i });
    }
  });
  return out.filter((m) => !Number.isNaN(m.end));
};

describe('vat model', () => {
  const week = run(model(), START - 2 * 24 * HOUR, 9 * 24 * 60);

  it('publishes messages that pass the device message schema, for several vat sizes and with random faults', () => {
    const configs = [VAT_9100, vatOf(21500, 2875, 3500), vatOf(5700, 2337, 1500), vatOf(12000, 2337, 3000)];
    for (const vat of configs) {
      const samples = run(model({ vat, device: `vm-${vat.vat_size}`, randomFaultsPerDay: 2 }), START, 4 * 24 * 60);
      for (const { m } of msgs(samples)) {
        const parsed = telemetryMessageSchema.safeParse(m);
        expect(parsed.success, parsed.success ? '' : `${m.published_at}: ${parsed.error.message}`).toBe(true);
      }
    }
    for (const { m } of msgs(week)) expect(telemetryMessageSchema.safeParse(m).success).toBe(true);
  });

  it('has two milkings a farm-local day, morning and afternoon, 1.5-2.5 h long, each adding 35-45 % of the vat', () => {
    const perDay = new Map<string, number[]>();
    for (const mk of milkings(week)) {
      const local = localTime(TZ, mk.start);
      perDay.set(local.dateKey, [...(perDay.get(local.dateKey) ?? []), local.minuteOfDay]);
      const minutes = (mk.end - mk.start) / MINUTE + 1;
      expect(minutes).toBeGreaterThanOrEqual(90);
      expect(minutes).toBeLessThanOrEqual(150);
      const added = (week[mk.endIdx]?.litres ?? 0) - (week[mk.startIdx - 1]?.litres ?? 0);
      expect(added / VAT_9100.vat_size).toBeGreaterThan(0.3);
      expect(added / VAT_9100.vat_size).toBeLessThan(0.5);
    }
    const fullDays = [...perDay.entries()].slice(1, -1);
    expect(fullDays.length).toBeGreaterThanOrEqual(6);
    for (const [, starts] of fullDays) {
      expect(starts).toHaveLength(2);
      expect(starts[0]).toBeGreaterThanOrEqual(5 * 60);
      expect(starts[0]).toBeLessThanOrEqual(6 * 60);
      expect(starts[1]).toBeGreaterThanOrEqual(15 * 60);
      expect(starts[1]).toBeLessThanOrEqual(16 * 60);
    }
    // som, milking…, eom: EM messages on milking start and end.
    for (const mk of milkings(week)) {
      expect(week[mk.startIdx]?.m?.message_type).toBe('EM');
      expect(week[mk.endIdx]?.m?.message_type).toBe('EM');
      expect(week[mk.startIdx + 1]?.m?.state_machine).toBe('milking');
      expect(week[mk.endIdx + 1]?.m?.state_machine).toMatch(/storage|empty/);
    }
  });

  it('meets the raw-milk cooling rules in normal operation (10 °C within 4 h of start; 6 °C by start + 6 h or end + 2 h)', () => {
    const all = milkings(week);
    expect(all.length).toBeGreaterThanOrEqual(16);
    all.forEach((mk, n) => {
      const next = all[n + 1]?.startIdx ?? week.length;
      const by10 = mk.start + 4 * HOUR;
      const by6 = Math.min(mk.start + 6 * HOUR, mk.end + 2 * HOUR);
      for (const x of week.slice(mk.startIdx, next)) {
        if (x.m?.state_machine !== 'storage') continue; // an emptied vat warms up: no milk to judge
        if (x.t >= by10) expect(x.m.temp1, new Date(x.t).toISOString()).toBeLessThanOrEqual(10);
        if (x.t >= by6) expect(x.m.temp1, new Date(x.t).toISOString()).toBeLessThanOrEqual(6);
      }
    });
    // And it really refrigerates: stored milk sits around 4 °C.
    const stored = msgs(week).filter((x) => x.m.state_machine === 'storage').map((x) => x.m.temp1 ?? 99);
    expect(Math.min(...stored)).toBeGreaterThan(3);
    expect(stored.filter((c) => c <= 5).length / stored.length).toBeGreaterThan(0.7);
  });

  it('reports a radar distance from which the platform computes the simulated volume', () => {
    for (const x of msgs(week)) {
      const volume = volumeFromLevel(levelFromRadar(VAT_9100.vat_max_height, x.m.radar_distance ?? 0), VAT_9100);
      expect(Math.abs(volume - x.litres)).toBeLessThanOrEqual(20);
    }
    const full = Math.max(...week.map((x) => x.litres));
    expect(full).toBeGreaterThan(0.6 * VAT_9100.vat_size);
    expect(full).toBeLessThanOrEqual(VAT_9100.vat_size * 1.05);
  });

  it('runs the agitator while milking, otherwise when refrigerating and 5 minutes in 30', () => {
    for (const x of msgs(week)) {
      if (x.m.state_machine === 'milking') expect(x.m.agitator_status).toBe(1);
      if (x.m.agitator_status === 1) expect(x.m.shaft_rpm).toBeGreaterThanOrEqual(60);
      else expect(x.m.shaft_rpm).toBe(0);
    }
    const stored = msgs(week).filter((x) => x.m.state_machine === 'storage');
    const share = stored.filter((x) => x.m.agitator_status === 1).length / stored.length;
    expect(share).toBeGreaterThan(0.15);
    expect(share).toBeLessThan(0.9);
  });

  it('is collected every day or two, pumped out at about 1,500 L/min, and a CIP wash follows', () => {
    let collections = 0;
    week.forEach((x, i) => {
      const prev = week[i - 1];
      if (!prev || prev.litres < 1000 || x.litres > 0) return;
      collections += 1;
      // Pumped out at ~1,500 L/min: walk back over the minutes the level fell.
      let j = i;
      while (j > 0 && (week[j - 1]?.litres ?? 0) - (week[j]?.litres ?? 0) > 20) j -= 1;
      const before = week[j]?.litres ?? 0;
      const minutes = i - j;
      expect(before).toBeGreaterThan(0.5 * VAT_9100.vat_size);
      expect(minutes).toBeGreaterThanOrEqual(1);
      expect(before / minutes).toBeGreaterThan(1000);
      expect(minutes).toBeLessThanOrEqual(Math.ceil(before / 1300));
      expect(x.m?.state_machine).toBe('empty');
      const wash = week.slice(i, i + 90).filter((y) => (y.m?.temp5 ?? 0) >= 65);
      expect(wash.length).toBeGreaterThanOrEqual(15);
      expect(wash.length).toBeLessThanOrEqual(35);
      expect(Math.max(...wash.map((y) => y.m?.temp5 ?? 0))).toBeLessThanOrEqual(78);
    });
    expect(collections).toBeGreaterThanOrEqual(4);
    expect(collections).toBeLessThanOrEqual(9);
  });

  it('is deterministic: the same seed gives the same messages, another seed others', () => {
    const a = msgs(run(model({ randomFaultsPerDay: 3 }), START, 2 * 24 * 60)).map((x) => x.m);
    const b = msgs(run(model({ randomFaultsPerDay: 3 }), START, 2 * 24 * 60)).map((x) => x.m);
    const c = msgs(run(model({ seed: 8 }), START, 2 * 24 * 60)).map((x) => x.m);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  });

  it('continues exactly from a saved state (a restarted simulator carries on the series)', () => {
    const whole = run(model(), START, 3 * 24 * 60).map((x) => x.m);
    const first = model();
    const head = run(first, START, 36 * 60).map((x) => x.m);
    const resumed = createVatModel({ device: 'vm-test-1', farmKey: 'TEST1', timezone: TZ, vat: VAT_9100, seed: 7 }, JSON.parse(JSON.stringify(first.state())));
    const tail = run(resumed, 0, 36 * 60).map((x) => x.m);
    expect([...head, ...tail]).toEqual(whole);
  });

  it('fills a gap in time without publishing it, and the series stays plausible', () => {
    const vm = model();
    run(vm, START, 60);
    const t = vm.nextTime() + 5 * HOUR;
    const m = vm.step(t);
    expect(m?.published_at).toBe(new Date(t).toISOString());
    expect(m?.signal?.disconnects).toBe(1);
    expect(() => vm.step(t)).toThrow(/must advance/);
  });
});

describe('vat model faults', () => {
  /** Runs 2 days, injecting `kind` for `minutes` at the first minute `at(t)` holds. */
  const withFault = (kind: FaultKind, minutes: number, at: (t: number) => boolean) => {
    const vm = model();
    let injected: number | undefined;
    const samples = run(vm, START, 2 * 24 * 60, (t) => {
      if (injected === undefined && at(t)) {
        vm.inject(kind, minutes, t);
        injected = t;
      }
    });
    if (injected === undefined) throw new Error('fault never injected');
    const from = injected;
    const during = samples.filter((x) => x.t >= from && x.t < from + minutes * MINUTE);
    const after = samples.filter((x) => x.t >= from + minutes * MINUTE);
    return { samples, during, after, from };
  };
  const localMinute = (t: number) => localTime(TZ, t).minuteOfDay;

  it('power_cut: even battery register (mains off), agitator stopped, and an AM alarm', () => {
    const { during, after } = withFault('power_cut', 90, (t) => t > START + 12 * HOUR && localMinute(t) === 14 * 60);
    expect(during[0]?.m?.message_type).toBe('AM');
    for (const x of during) {
      expect(x.m?.battery?.status).toBe('0x0A');
      expect(isOnMains(x.m?.battery?.status ?? '')).toBe(false);
      expect(x.m?.agitator_status).toBe(0);
      expect(x.m?.shaft_rpm).toBe(0);
    }
    expect(isOnMains(after[0]?.m?.battery?.status ?? '')).toBe(true);
    expect(after[0]?.m?.battery?.status).toBe('0x0B');
  });

  it('agitator_stop: agitator 0 and shaft 0 while the refrigeration still cools', () => {
    const { during } = withFault('agitator_stop', 240, (t) => t > START + 12 * HOUR && localMinute(t) === 15 * 60 + 40);
    for (const x of during) {
      expect(x.m?.agitator_status).toBe(0);
      expect(x.m?.shaft_rpm).toBe(0);
      expect(x.m?.battery?.status).toBe('0x0B');
    }
    // The refrigeration still runs (less well without stirring): the milk cools after the milking.
    const temps = during.filter((x) => x.m?.state_machine === 'storage').map((x) => x.m?.temp1 ?? 99);
    expect(temps.length).toBeGreaterThan(30);
    expect(temps[temps.length - 1]).toBeLessThan((temps[0] ?? 0) - 1);
  });

  it('chiller_off: after a milking the vat goes over 6 °C, then over 10 °C, and stays warm', () => {
    const { during } = withFault('chiller_off', 10 * 60, (t) => t > START + 12 * HOUR && localMinute(t) === 4 * 60);
    const storage = during.filter((x) => x.m?.state_machine === 'storage' || x.m?.state_machine === 'milking');
    const over6 = storage.findIndex((x) => (x.m?.temp1 ?? 0) > 6);
    const over10 = storage.findIndex((x) => (x.m?.temp1 ?? 0) > 10);
    expect(over6).toBeGreaterThanOrEqual(0);
    expect(over10).toBeGreaterThanOrEqual(over6);
    const lastHour = storage.slice(-60).map((x) => x.m?.temp1 ?? 0);
    expect(Math.min(...lastHour)).toBeGreaterThan(10);
  });

  it('warm_plate: plate and inlet at 28-32 °C during the milking, and the vat warms', () => {
    const normalSamples = run(model(), START, 2 * 24 * 60);
    const normal = milkings(normalSamples);
    const { samples, during } = withFault('warm_plate', 240, (t) => t > START + 12 * HOUR && localMinute(t) === 5 * 60);
    const milking = during.filter((x) => x.m?.state_machine === 'milking');
    expect(milking.length).toBeGreaterThan(60);
    for (const x of milking.slice(10)) {
      expect(x.m?.temp3).toBeGreaterThanOrEqual(27);
      expect(x.m?.temp3).toBeLessThanOrEqual(33);
      expect(x.m?.temp2).toBeGreaterThanOrEqual(27);
    }
    const faulty = milkings(samples).find((mk) => mk.startIdx === samples.indexOf(milking[0] as Sample) - 1);
    const sameNormal = faulty && normal.find((mk) => mk.start === faulty.start);
    expect(faulty && sameNormal).toBeTruthy();
    if (faulty && sameNormal) expect(samples[faulty.endIdx]?.m?.temp1 ?? 0).toBeGreaterThan((normalSamples[sameNormal.endIdx]?.m?.temp1 ?? 0) + 5);
  });

  it('offline: publishes nothing for the fault, then carries on with one more reconnect', () => {
    const { during, after } = withFault('offline', 45, (t) => t > START + 6 * HOUR);
    expect(during).toHaveLength(45);
    for (const x of during) expect(x.m).toBeUndefined();
    const before = after[0]?.m?.signal?.disconnects ?? 0;
    expect(after[0]?.m).toBeDefined();
    expect(before).toBeGreaterThanOrEqual(1);
  });

  it('random faults: occasional, short, reproducible from the seed', () => {
    const vm = model({ randomFaultsPerDay: 1 });
    run(vm, START, 20 * 24 * 60);
    const faults = vm.state().faults;
    // Kept only while recent; count the alarm and offline traces instead.
    const again = model({ randomFaultsPerDay: 1 });
    const samples = run(again, START, 20 * 24 * 60);
    const alarms = samples.filter((x) => x.m?.message_type === 'AM').length;
    const offline = samples.filter((x) => x.m === undefined).length;
    expect(alarms + (offline > 0 ? 1 : 0)).toBeGreaterThanOrEqual(5);
    expect(alarms).toBeLessThanOrEqual(45);
    expect(again.state().faults).toEqual(faults);
  });
});

describe('vat model quality estimates (farmer §3 quality; the dairy company’s vats)', () => {
  const qualityOf = (x: Sample) => x.m?.quality ?? undefined;

  it('a vat with quality on reports currentEstCFU and pickupEstCFU whenever milk is in it, Excellent (≤ 4.3) in cold storage, afresh after a collection', () => {
    const samples = msgs(run(model({ quality: true }), START - 2 * 24 * HOUR, 5 * 24 * 60)).filter((x) => x.t >= START);
    const withMilk = samples.filter((x) => x.litres > 0);
    expect(withMilk.length).toBeGreaterThan(1000);
    for (const x of withMilk) {
      const q = qualityOf(x);
      expect(q?.currentEstCFU).toBeGreaterThanOrEqual(3.6);
      expect(q?.currentEstCFU).toBeLessThanOrEqual(4.3);
      expect(q?.pickupEstCFU).toBeGreaterThanOrEqual(q?.currentEstCFU ?? 99);
    }
    // An emptied vat sends none, and its next milk starts from fresh milk's 3.6 again.
    const empty = samples.filter((x) => x.litres === 0);
    expect(empty.length).toBeGreaterThan(0);
    expect(empty.every((x) => qualityOf(x) === undefined)).toBe(true);
    const refill = samples.findIndex((x, i) => i > 0 && x.litres > 0 && samples[i - 1]?.litres === 0);
    expect(qualityOf(samples[refill] as Sample)?.currentEstCFU).toBeLessThan(3.62);
    for (const x of samples) expect(() => telemetryMessageSchema.parse(x.m)).not.toThrow();
  });

  it('warm milk ages faster: with the chiller off the estimate climbs well above the same hours cold', () => {
    const rise = (fault: boolean) => {
      const vm = model({ quality: true });
      let from: number | undefined;
      const samples = msgs(
        run(vm, START, 2 * 24 * 60, (t) => {
          if (fault && from === undefined && t > START + 12 * HOUR && localTime(TZ, t).minuteOfDay === 4 * 60) {
            vm.inject('chiller_off', 10 * 60, t);
            from = t;
          }
          if (!fault && from === undefined && t > START + 12 * HOUR && localTime(TZ, t).minuteOfDay === 4 * 60) from = t;
        }),
      );
      const at = (t: number) => samples.find((x) => x.t >= t && x.litres > 0);
      const start = from ?? 0;
      return (qualityOf(at(start + 10 * HOUR) as Sample)?.currentEstCFU ?? 0) - (qualityOf(at(start + HOUR) as Sample)?.currentEstCFU ?? 0);
    };
    expect(rise(true)).toBeGreaterThan(2 * rise(false));
  });

  it('a vat without it sends no quality', () => {
    expect(msgs(run(model(), START, 24 * 60)).some((x) => x.m.quality !== undefined)).toBe(false);
  });
});
