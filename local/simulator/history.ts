import type { Device } from '../../shared/entities/device';
import type { Farm } from '../../shared/entities/farm';
import { telemetryMessageSchema, type TelemetryMessageInput } from '../../shared/telemetry/device-message';
import { toReading, type Reading } from '../../shared/telemetry/reading';
import { createVatModel } from './vat-model';

/**
 * A vat's history as the simulator's vat model makes it (milkings, cooling, collections, CIP
 * washes, sensor noise), minute by minute, without MQTT: for the range bench and the chart tests,
 * which need real-shaped readings in bulk (a month of four vats is 172,800 messages; publishing
 * them through the stack would take as long as the ingest bench). An `offline` fault gives an
 * outage (no messages), a `power_cut` a battery-off period.
 */

const MINUTE = 60_000;

export interface HistoryFault {
  readonly kind: 'offline' | 'power_cut' | 'chiller_off';
  /** Minutes after `from`. */
  readonly atMinute: number;
  readonly minutes: number;
}

interface VatHistory {
  readonly message: TelemetryMessageInput;
  readonly reading: Reading;
}

export const vatHistory = (
  farm: Pick<Farm, 'fonterra_id' | 'timezone' | 'package' | 'supplier'>,
  device: Pick<Device, 'name' | 'vat_size' | 'vat_diameter' | 'vat_max_height' | 'wedgeHeight' | 'vat_volume_offset'>,
  from: number,
  minutes: number,
  faults: readonly HistoryFault[] = [],
  seed = 1,
): VatHistory[] => {
  const vat = {
    vat_size: device.vat_size,
    vat_diameter: device.vat_diameter,
    vat_max_height: device.vat_max_height,
    wedgeHeight: device.wedgeHeight,
    vat_volume_offset: device.vat_volume_offset,
  };
  const model = createVatModel({
    device: device.name,
    farmKey: farm.fonterra_id,
    timezone: farm.timezone,
    vat,
    seed,
    controller: farm.package === 'Vat-Man Auto',
    quality: farm.supplier === 'FON',
  });
  const out: VatHistory[] = [];
  const start = model.nextTime(from);
  for (let k = 0; k < minutes; k++) {
    const t = start + k * MINUTE;
    for (const f of faults) if (f.atMinute === k) model.inject(f.kind, f.minutes, t);
    const message = model.step(t);
    if (message) out.push({ message, reading: toReading(telemetryMessageSchema.parse(message), vat) });
  }
  return out;
};
