import type { Device } from '../../shared/entities/device';
import { PACKAGES, type Farm } from '../../shared/entities/farm';
import { HEIGHT_TABLE } from '../../shared/installer/height-table';
import { createRng, intBetween } from './random';

/**
 * Synthetic farms for `npm run simulate -- --farms N`: supply numbers SIM0001…, a mix of the
 * Lite, Pro and Auto packages, 1-4 vats with configurations from the installer table (operator
 * §9). Deterministic from the seed, so a re-run provisions the same farms.
 */

/** The installer's vat table (shared/installer/height-table.ts, operator §9): one row per synthetic vat. */
export const INSTALLER_VATS = HEIGHT_TABLE;

const syntheticSupplyNumber = (n: number): string => `SIM${String(n).padStart(4, '0')}`;

/** `pkg`: every farm's package (`--package`); without it the farms take the three in turn. */
export const syntheticFarms = (count: number, seed: number, today = new Date(), pkg?: Farm['package']): { farms: Farm[]; devices: Device[] } => {
  const farms: Farm[] = [];
  const devices: Device[] = [];
  for (let n = 1; n <= count; n += 1) {
    const rng = createRng(seed * 7919 + n);
    const fonterraId = syntheticSupplyNumber(n);
    const id = fonterraId.toLowerCase();
    const farmPackage = pkg ?? (PACKAGES[(n - 1) % PACKAGES.length] as Farm['package']);
    const vats = intBetween(rng, 1, 4);
    farms.push({
      _id: `farm-${id}`,
      fonterra_id: fonterraId,
      name: `Simulated farm ${n}`,
      package: farmPackage,
      is_milk_enabled: true,
      power: true,
      knode: { is_water_enabled: false, is_effluent_enabled: false, is_land_enabled: false, is_weather_enabled: false },
      timezone: 'Pacific/Auckland',
      auto_check: true,
      fonterra_api_status: false,
      harvest: false,
      install_numVats: vats,
      install_date: today.toISOString().slice(0, 10),
    });
    for (let v = 1; v <= vats; v += 1) {
      const cfg = INSTALLER_VATS[Math.floor(rng.next() * INSTALLER_VATS.length)] ?? INSTALLER_VATS[4];
      if (!cfg) continue;
      devices.push({
        _id: `dev-${id}-${v}`,
        name: `vm-${id}-${v}`,
        farm_id: `farm-${id}`,
        vat_number: v,
        status: 1,
        system_version: '3.2.1',
        firmware_version: '41',
        vat_size: cfg.volume,
        vat_max_height: cfg.height,
        vat_diameter: cfg.diameter,
        wedgeHeight: 60,
        vat_volume_offset: 0,
        vat_auto: farmPackage === 'Vat-Man Auto',
      });
    }
  }
  return { farms, devices };
};
