import { CALIBRATION_MESSAGES, dairyCompanyContracts as contracts, type CalibrationCollection, type DairyReport } from '../../shared/api/actions/dairy-company';
import { diameterFor } from '../../shared/calibration/formula';
import { tankerFigureFor } from '../../shared/calibration/tanker';
import type { Device } from '../../shared/entities/device';
import { isDairyCompanyFarm, type Farm } from '../../shared/entities/farm';
import { withDefaults } from '../../shared/watchman/settings';
import { attemptCountOf, type DairyEvent } from '../ports/dairy';
import { serve, type ServedAction } from '../lib/dispatch';
import { ValidationError } from '../lib/errors';
import type { Ports } from '../ports/action-ports';
import { settingsTargetOf } from '../lib/settings-target';
import { commitChange } from './audit';

const DAY = 86_400_000;
const MIN = 60_000;
/** A unit that reported within this long counts as connected (operator §8 'particle is connected'). */
const CONNECTED_WITHIN_MS = 5 * MIN;

const reportOf = (e: DairyEvent): DairyReport => ({
  key: e.key,
  kind: e.kind,
  event_at: e.event_at,
  state: e.state,
  // The exporter wrote it from one of the payload schemas (gatewayJson); answer checks parse it under the tests.
  request: JSON.parse(e.payload) as DairyReport['request'],
  attempts: [...e.attempts],
  attempt_count: attemptCountOf(e),
});
const lastOf = (events: readonly DairyEvent[], kind: DairyEvent['kind']): DairyReport[] => {
  const last = events.filter((e) => e.kind === kind).sort((a, b) => a.event_at.localeCompare(b.event_at)).at(-1);
  return last ? [reportOf(last)] : [];
};

/** /api/farmer/log/fonterra (farmer §2.15, §7): per vat the last milking, collection and exception report. */
export const farmerLogFonterraActions: readonly ServedAction[] = [
  serve(contracts.FARMER_LOG_FONTERRA, ['farms', 'dairy'], async (_input, { farm, deps }) => {
    const [devices, events] = await Promise.all([deps.farms.listDevicesOfFarm(farm._id), deps.dairy.listEvents(farm._id)]);
    return devices
      .filter((d) => d.status === 1)
      .map((d) => {
        const mine = events.filter((e) => e.vat === d.vat_number);
        return { vat: d.vat_number, activity: [...lastOf(mine, 'milkingevent'), ...lastOf(mine, 'collectionevent')], alert: lastOf(mine, 'vatexceptions') };
      });
  }),
  serve(contracts.DAIRY_EVENT_RESEND, ['dairyWrite', 'now'], async ({ farm, key }, { caller, deps, log }) => {
    const requeued = await deps.dairyWrite.requeueRefused(farm, deps.now().toISOString(), key || undefined);
    log.info('dairy events queued again', { farm, requeued: requeued.length, by: caller.userId });
    return { requeued };
  }),
];

/** The farm and active vat an operator names by supply number and vat number (422 when either is unknown). */
const vatOf = async (farms: Ports['farms'], supplyNumber: string, vatNumber: number): Promise<{ farm: Farm; device: Device }> => {
  const farm = await farms.findFarmBySupplyNumber(supplyNumber);
  if (!farm) throw new ValidationError(CALIBRATION_MESSAGES.noFarm);
  const device = (await farms.listDevicesOfFarm(farm._id)).find((d) => d.vat_number === vatNumber && d.status === 1);
  if (!device) throw new ValidationError(CALIBRATION_MESSAGES.noVat(vatNumber));
  return { farm, device };
};

/** /api/calibration (operator §7): collections joined with the company's dockets, and the vat config. */
export const calibrationActions: readonly ServedAction[] = [
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

/**
 * /api/installer VAT_SETTINGS (calibration's Apply, operator §7, §8): stores the vat config (the
 * ingest computes every later volume with it) and pushes it to the unit over MQTT, waiting for
 * its reply. return_value 1: the unit applied it; otherwise `connected` says whether the unit
 * reported in the last 5 minutes.
 */
export const installerActions: readonly ServedAction[] = [
  serve(contracts.VAT_SETTINGS, ['farms', 'auditedChanges', 'units', 'devices', 'now'], async (input, { deps, log, caller }) => {
    const { farm, device } = await vatOf(deps.farms, input.supplyNumber, input.vatNumber);
    const config = { vat_size: input.vatSize, vat_max_height: input.height, vat_diameter: input.diameter, wedgeHeight: input.wedgeHeight, vat_volume_offset: input.volumeOffset };
    const text = (c: typeof config) => `size ${c.vat_size} L, height ${c.vat_max_height} mm, diameter ${c.vat_diameter} mm, wedge ${c.wedgeHeight} mm, offset ${c.vat_volume_offset} L`;
    // Stored first, with its entry (decision 050): the platform's volumes follow the calibration even if the unit is offline.
    await commitChange(deps, caller, 'device', { action: 'VAT_SETTINGS', target: `${device.name} (${farm.fonterra_id} vat ${device.vat_number})`, before: text(device), after: text(config) }, [
      { kind: 'vatConfig', deviceId: device._id, config },
    ]);
    log.info('vat calibrated', { farm: farm._id, device: device._id, by: caller.userId, ...config });
    const answer = await deps.devices.sendSettings(await settingsTargetOf(deps.units, device), config);
    if (answer.answered) return { return_value: 1, connected: true };
    const seen = device.seen_at ? Date.parse(device.seen_at) : Number.NaN;
    return { return_value: 0, connected: deps.now().getTime() - seen <= CONNECTED_WITHIN_MS };
  }),
];
