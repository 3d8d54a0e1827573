import { calibrationContracts as contracts, type CalibrationCollection } from '../../shared/api/actions/calibration';
import { diameterFor } from '../../shared/calibration/formula';
import { tankerFigureFor } from '../../shared/calibration/tanker';
import { isDairyCompanyFarm } from '../../shared/entities/farm';
import { withDefaults } from '../../shared/watchman/settings';
import { serve, type ServedAction } from '../lib/dispatch';
import { vatOf } from './support/vat-of';

const DAY = 86_400_000;

/** /api/calibration (operator §7): collections joined with the company's dockets, and the vat config. */
export const calibrationHandlers: readonly ServedAction[] = [
  serve(contracts.COLLECTIONS, ['farms', 'readings', 'dairy', 'pickupList', 'watchman', 'now'], async ({ amount, supplyNumber, vatNumber }, { deps }) => {
    const [{ farm, device }, settings] = await Promise.all([vatOf(deps.farms, supplyNumber, vatNumber), deps.watchman.getSettings().then(withDefaults)]);
    const now = deps.now();
    const from = amount === 'RECENT' ? new Date(now.getTime() - settings.calibration_days * DAY).toISOString() : '0';
    const collections = (await deps.readings.listActivities(device._id, from, now.toISOString(), ['collection'])).filter((c) => c.end !== null);
    // A dairy-company farm's volumes are the company's dockets; any other farm's, the pickups its farmer entered.
    const company = isDairyCompanyFarm(farm.fonterra_id);
    const dockets = company ? await deps.dairy.listDockets(farm._id, vatNumber) : [];
    const pickups = company ? [] : (await deps.pickupList.listPickups(farm._id)).filter((p) => p.vat === vatNumber);
    const config = { height: device.vat_max_height, diameter: device.vat_diameter, wedgeHeight: device.wedgeHeight, volumeOffset: device.vat_volume_offset };
    const adjustAt = async (iso: string) => {
      const r = (await deps.readings.readRange(device._id, iso, iso))[0];
      return r && r.radar_distance !== null ? { radar_distance: r.radar_distance, milk_level: r.milk_level, milk_volume: r.milk_volume, created_at: r.published_at } : null;
    };
    const rows: CalibrationCollection[] = [];
    for (const c of collections) {
      const end = c.end ?? c.start;
      const [startAdjust, endAdjust] = await Promise.all([adjustAt(c.start.published_at), adjustAt(end.published_at)]);
      const tanker = tankerFigureFor({ start: c.start.published_at, end: end.published_at }, dockets, pickups, settings.matching_pickup_minutes);
      const volume = tanker?.volume ?? null;
      const temperature = tanker?.temperature ?? null;
      rows.push({
        _id: `${device._id}~collection~${c.start.published_at}`,
        start: { published_at: c.start.published_at, temp1: c.start.temp1, milk_volume: c.start.milk_volume },
        end: { published_at: end.published_at, temp1: end.temp1, milk_volume: end.milk_volume },
        start_adjust: startAdjust,
        end_adjust: endAdjust,
        fonterra_volume: volume,
        fonterra_temperature: temperature,
        volume_source: tanker?.source ?? null,
        diameter: volume !== null && startAdjust && endAdjust ? (diameterFor(volume, startAdjust.radar_distance, endAdjust.radar_distance, config) ?? null) : null,
        omit: volume === null,
      });
    }
    return rows;
  }),

  serve(contracts.VAT_CONFIG, ['farms'], async ({ supplyNumber, vatNumber }, { deps }) => {
    const { farm, device } = await vatOf(deps.farms, supplyNumber, vatNumber);
    return {
      vat_size: device.vat_size,
      vat_max_height: device.vat_max_height,
      vat_diameter: device.vat_diameter,
      wedgeHeight: device.wedgeHeight,
      vat_volume_offset: device.vat_volume_offset,
      timezone: farm.timezone,
    };
  }),
];
