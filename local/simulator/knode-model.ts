import { KNODE_TYPES, type KnodeMessage } from '../../shared/telemetry/device-message';
import type { KnodeAsset } from '../../shared/entities/farm';
import { localTime } from './vat-state';
import { createRng, hashString, jitter } from './random';

/**
 * A farm's knode gateway: every 10 simulated minutes one reading per asset, drifting plausibly
 * per type (farmer §2.4; metric meanings in shared/telemetry/device-message.ts).
 */

export const KNODE_INTERVAL_MS = 10 * 60_000;

/** The MQTT thing of a farm's knode gateway (the seed registers it). */
export const knodeThingOf = (fonterraId: string): string => `kn-${fonterraId.toLowerCase()}`;

type KnodeType = (typeof KNODE_TYPES)[number];
const isKnodeType = (t: string): t is KnodeType => (KNODE_TYPES as readonly string[]).includes(t);

interface KnodeModelConfig {
  readonly farmKey: string;
  readonly timezone: string;
  readonly assets: readonly KnodeAsset[];
  readonly seed: number;
}

export interface KnodeModelState {
  readonly version: 1;
  t: number | null;
  rng: number;
  /** Per asset name: its current metric values. */
  values: Record<string, number[]>;
  /** Rain today (mm) and the local date it counts for, per weather station. */
  rainDay: Record<string, string>;
}

export interface KnodeModel {
  /** Advances to simTime and returns one message per (known-type) asset. */
  step(simTime: Date | number): KnodeMessage[];
  nextTime(from?: number): number;
  state(): KnodeModelState;
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const r1 = (x: number) => Math.round(x * 10) / 10;

export const createKnodeModel = (config: KnodeModelConfig, saved?: KnodeModelState): KnodeModel => {
  const assets = config.assets.filter((a): a is KnodeAsset & { type: KnodeType } => isKnodeType(a.type));
  const s: KnodeModelState = saved
    ? (structuredClone(saved) as KnodeModelState)
    : {
        version: 1,
        t: null,
        rng: hashString(`${config.seed}|${config.farmKey}|knode`),
        values: Object.fromEntries(
          assets.map((a) => [a.asset_name, [a.metric_value_1, a.metric_value_2, a.metric_value_3, a.metric_value_4, a.metric_value_5, a.metric_value_6].map((v) => v ?? 0)]),
        ),
        rainDay: {},
      };

  const step = (t: number): KnodeMessage[] => {
    const rng = createRng(s.rng);
    const local = localTime(config.timezone, t);
    const hour = local.minuteOfDay / 60;
    const airBase = 15 + 7 * Math.sin((2 * Math.PI * (hour - 9)) / 24);
    const messages: KnodeMessage[] = [];
    for (const a of assets) {
      const v = (s.values[a.asset_name] ??= [0, 0, 0, 0, 0, 0]);
      let alarm: boolean | undefined;
      switch (a.type) {
        case 'Tank': {
          // Stock drink by day, the pump refills below 20 % up to ~95 %.
          const refilling = v[5] === 1;
          const use = hour > 6 && hour < 20 ? 0.35 : 0.08;
          v[0] = clamp((v[0] ?? 50) + (refilling ? 1.6 : -use) + jitter(rng, 0.1), 0, 100);
          if ((v[0] ?? 0) < 20) v[5] = 1;
          if ((v[0] ?? 0) > 95) v[5] = 0;
          alarm = (v[0] ?? 0) < 20;
          messages.push({ ...base(a, t), metric_value_1: r1(v[0] ?? 0), alarm_active: alarm });
          continue;
        }
        case 'TravellingIrrigator': {
          // Runs overnight (20:00-06:00), stands by day.
          const running = hour >= 20 || hour < 6;
          v[0] = running ? clamp((v[0] || 45) + jitter(rng, 2), 25, 70) : 0;
          messages.push({ ...base(a, t), metric_value_1: r1(v[0] ?? 0) });
          continue;
        }
        case 'PumpEffluentSurface': {
          // Pumps after each milking wash-down.
          const running = (hour >= 8 && hour < 10) || (hour >= 18 && hour < 19.5);
          v[0] = running ? clamp(7.5 + jitter(rng, 0.6), 5, 11) : 0;
          messages.push({ ...base(a, t), metric_value_1: r1(v[0] ?? 0) });
          continue;
        }
        case 'SoilProbe': {
          // 10 cm soil lags the air and swings less; moisture dries slowly, jumps with irrigation or rain.
          v[0] = (v[0] ?? 12) + ((12 + 2.5 * Math.sin((2 * Math.PI * (hour - 12)) / 24)) - (v[0] ?? 12)) / 12 + jitter(rng, 0.05);
          v[1] = clamp((v[1] ?? 35) - 0.02 + (rng.next() < 0.004 ? 6 : 0) + jitter(rng, 0.1), 12, 55);
          messages.push({ ...base(a, t), metric_value_1: r1(v[0] ?? 0), metric_value_2: r1(v[1] ?? 0) });
          continue;
        }
        case 'WeatherStation': {
          if (s.rainDay[a.asset_name] !== local.dateKey) {
            s.rainDay[a.asset_name] = local.dateKey;
            v[0] = 0;
          }
          const raining = rng.next() < 0.04;
          v[0] = (v[0] ?? 0) + (raining ? 0.2 + rng.next() * 1.2 : 0);
          v[1] = (v[1] ?? airBase) + (airBase - (v[1] ?? airBase)) / 3 + jitter(rng, 0.2);
          v[2] = clamp(95 - 2.2 * ((v[1] ?? 15) - 8) + (raining ? 8 : 0) + jitter(rng, 1.5), 30, 100);
          v[3] = clamp((v[3] ?? 12) + jitter(rng, 2.5) + (14 - (v[3] ?? 12)) * 0.05, 0, 80);
          v[4] = (((v[4] ?? 225) + jitter(rng, 12)) % 360 + 360) % 360;
          const daylight = Math.max(0, Math.sin((Math.PI * (hour - 6)) / 14));
          v[5] = Math.max(0, 950 * daylight * (raining ? 0.3 : 0.75 + 0.25 * rng.next()));
          messages.push({
            ...base(a, t),
            metric_value_1: r1(v[0] ?? 0),
            metric_value_2: r1(v[1] ?? 0),
            metric_value_3: Math.round(v[2] ?? 0),
            metric_value_4: Math.round(v[3] ?? 0),
            metric_value_5: Math.round(v[4] ?? 0),
            metric_value_6: Math.round(v[5] ?? 0),
          });
          continue;
        }
      }
    }
    s.rng = rng.state();
    return messages;
  };

  const base = (a: KnodeAsset & { type: KnodeType }, t: number) => ({
    published_at: new Date(t).toISOString(),
    type: a.type,
    asset_name: a.asset_name,
    ...(a.unit_1 !== undefined ? { unit_1: a.unit_1 } : {}),
    ...(a.url !== undefined ? { url: a.url } : {}),
    ...(a.alarm_active !== undefined ? { alarm_active: a.alarm_active } : {}),
  });

  return {
    step(simTime) {
      const t = typeof simTime === 'number' ? simTime : simTime.getTime();
      if (s.t !== null && t <= s.t) throw new Error(`knode ${config.farmKey}: simulated time must advance`);
      s.t = t;
      return step(t);
    },
    nextTime(from) {
      if (s.t !== null) return s.t + KNODE_INTERVAL_MS;
      const f = from ?? Date.now();
      return Math.ceil(f / KNODE_INTERVAL_MS) * KNODE_INTERVAL_MS;
    },
    state: () => structuredClone(s),
  };
};
