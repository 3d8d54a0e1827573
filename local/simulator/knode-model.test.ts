import { describe, expect, it } from 'vitest';
import { knodeMessageSchema, type KnodeMessage } from '../../shared/telemetry/device-message';
import { DEMO_KNODE } from '../seed/demo-data';
import { createKnodeModel, KNODE_INTERVAL_MS, knodeThingOf } from './knode-model';

const START = Date.parse('2026-06-01T12:00:00Z'); // farm midnight
const assets = DEMO_KNODE['farm-auto'] ?? [];

const runDays = (days: number, seed = 3) => {
  const model = createKnodeModel({ farmKey: 'FON50412', timezone: 'Pacific/Auckland', assets, seed });
  const out: KnodeMessage[][] = [];
  let t = model.nextTime(START);
  for (let i = 0; i < (days * 24 * 60) / 10; i += 1, t += KNODE_INTERVAL_MS) out.push(model.step(t));
  return out;
};

describe('knode model', () => {
  const days = runDays(3);
  const series = (name: string, metric: keyof KnodeMessage = 'metric_value_1') =>
    days.map((batch) => batch.find((m) => m.asset_name === name)?.[metric] as number);

  it('sends one message per asset every 10 minutes, each passing the knode message schema', () => {
    expect(assets.length).toBeGreaterThan(0);
    for (const batch of days) {
      expect(batch.map((m) => m.asset_name)).toEqual(assets.map((a) => a.asset_name));
      for (const m of batch) expect(knodeMessageSchema.safeParse(m).success).toBe(true);
    }
    expect(Date.parse(days[1]?.[0]?.published_at ?? '') - Date.parse(days[0]?.[0]?.published_at ?? '')).toBe(KNODE_INTERVAL_MS);
  });

  it('drifts plausibly per asset type', () => {
    const tank = series('Dairy tank');
    expect(Math.min(...tank)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...tank)).toBeLessThanOrEqual(100);
    expect(Math.max(...tank) - Math.min(...tank)).toBeGreaterThan(5);
    const irrigator = series('Irrigator 1');
    expect(irrigator.some((v) => v === 0)).toBe(true);
    expect(irrigator.some((v) => v > 20)).toBe(true);
    const pump = series('Effluent pump');
    expect(pump.some((v) => v === 0) && pump.some((v) => v > 5)).toBe(true);
    const air = series('Ridge weather', 'metric_value_2');
    expect(Math.min(...air)).toBeGreaterThan(0);
    expect(Math.max(...air)).toBeLessThan(35);
    const direction = series('Ridge weather', 'metric_value_5');
    for (const d of direction) expect(d >= 0 && d <= 360).toBe(true);
    const solar = series('Ridge weather', 'metric_value_6');
    expect(solar[0]).toBe(0); // midnight
    expect(Math.max(...solar)).toBeGreaterThan(300);
    const moisture = series('Paddock 7 probe', 'metric_value_2');
    for (const m of moisture) expect(m >= 0 && m <= 100).toBe(true);
  });

  it('is deterministic from the seed', () => {
    expect(runDays(1)).toEqual(runDays(1));
    expect(runDays(1, 4)).not.toEqual(runDays(1));
  });

  it('names the knode gateway thing after the supply number', () => {
    expect(knodeThingOf('FON50412')).toBe('kn-fon50412');
  });
});
