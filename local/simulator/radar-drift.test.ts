import { describe, expect, it } from 'vitest';
import { createVatModel } from './vat-model';

const vat = { vat_size: 14000, vat_max_height: 2438, vat_diameter: 2875, wedgeHeight: 60, vat_volume_offset: 0 };
const T0 = Date.parse('2026-06-01T00:00:00Z');
const HOUR = 3_600_000;

/** The radar_drift fault: the radar reads 1 mm further per hour, no alarm message, and is right again when it ends. */
describe('radar_drift', () => {
  it('adds a millimetre an hour to the radar distance while it lasts, silently', () => {
    const config = { device: 'vm-drift-1', farmKey: 'DRIFT', timezone: 'Pacific/Auckland', vat, seed: 4 };
    const plain = createVatModel(config);
    const drifting = createVatModel(config);
    drifting.inject('radar_drift', 30 * 60, T0);
    for (let t = T0; t <= T0 + 40 * HOUR; t += 60_000) {
      const a = plain.step(t);
      const b = drifting.step(t);
      const hours = Math.floor((t - T0) / HOUR);
      expect(b?.radar_distance).toBe(Math.min(10_000, (a?.radar_distance ?? 0) + (hours < 30 ? hours : 0)));
      expect(b?.message_type).toBe(a?.message_type);
    }
  });
});
