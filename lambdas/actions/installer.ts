import { installerContracts as contracts, type VatDevice } from '../../shared/api/actions/installer';
import type { Device } from '../../shared/entities/device';
import type { Farm } from '../../shared/entities/farm';
import { unitThingName, type Unit } from '../../shared/entities/install';
import { isTableVat } from '../../shared/installer/height-table';
import { serve, type ServedAction } from '../lib/dispatch';
import { ValidationError } from '../lib/errors';
import type { Ports } from '../lib/ports';

/** The installer's view of a vat device (operator §3). */
const vatDevice = (d: Device): VatDevice => ({
  _id: d._id,
  vat_number: d.vat_number,
  vat_max_height: d.vat_max_height,
  oclock: d.oclock ?? null,
  radar_serial: d.radar_serial ?? '',
  vat_manufacturer: d.vat_manufacturer ?? '',
  vat_serial: d.vat_serial ?? '',
  wedgeHeight: d.wedgeHeight,
  vat_diameter: d.vat_diameter,
  vat_size: d.vat_size,
  vat_auto: d.vat_auto,
});

const installerFarm = (farm: Farm, unit: Unit | undefined) => ({ _id: farm._id, fonterra_id: farm.fonterra_id, package: farm.package, lowConnectivity: unit?.low_connectivity ?? false });

/** The IMEI inside a unit's thing name (unitThingName), or undefined for anything else. */
const imeiOfParticle = (particleId: string): string | undefined => /^unit-(\d{15})$/.exec(particleId)?.[1];

const NOT_THIS_FARM = 'This particle is not the unit of this farm';

/**
 * The unit and farm a config change names, checked against each other: the particle must be the
 * farm's unit and the supply number the farm's, so a form edited by hand cannot move a unit or a
 * vat to another farm.
 */
const unitAndFarm = async (deps: Pick<Ports, 'farmsWrite' | 'installs'>, q: { particleID: string; farmID: string; supplyNumber: string; imei?: string }): Promise<{ unit: Unit; farm: Farm }> => {
  const imei = imeiOfParticle(q.particleID);
  if (!imei || (q.imei !== undefined && q.imei !== imei)) throw new ValidationError(NOT_THIS_FARM);
  const [unit, farm] = await Promise.all([deps.installs.getUnit(imei), deps.farmsWrite.getFarm(q.farmID)]);
  if (!unit || !farm || unit.farm_id !== farm._id || unitThingName(unit.imei) !== q.particleID) throw new ValidationError(NOT_THIS_FARM);
  if (farm.fonterra_id.toUpperCase() !== q.supplyNumber) throw new ValidationError(`Supply number ${q.supplyNumber} is not this farm's`);
  return { unit, farm };
};

/** /api/installer (operator §2, §5, §7): Installer and Admin. */
export const installerActions: readonly ServedAction[] = [
  /** Config search (§4): by IMEI or by supply number; the answer's key says which field was searched. */
  serve(contracts.DEVICE_SEARCH, ['farms', 'installs'], async ({ imei, supplyNumber }, { deps }) => {
    const key = imei ? ('imei' as const) : ('farm' as const);
    let unit: Unit | undefined;
    let farm: Farm | undefined;
    if (imei) {
      unit = await deps.installs.getUnit(imei);
      farm = unit ? await deps.farms.getFarm(unit.farm_id) : undefined;
    } else {
      farm = await deps.farms.findFarmBySupplyNumber(supplyNumber);
      unit = farm ? await deps.installs.unitOfFarm(farm._id) : undefined;
    }
    if (!unit || !farm) return { particle: null, farm: farm ? installerFarm(farm, undefined) : null, devices: [], key };
    const devices = (await deps.farms.listDevicesOfFarm(farm._id)).filter((d) => d.status === 1);
    return { particle: { _id: unit._id, body: { imei: unit.imei } }, farm: installerFarm(farm, unit), devices: devices.map(vatDevice), key };
  }),

  /** 'Submit Device Changes' (§2): the farm's product variant and the unit's low-connectivity flag. */
  serve(contracts.PARTICLE_CONFIG, ['farmsWrite', 'installs'], async (q, { deps, log }) => {
    const { unit, farm } = await unitAndFarm(deps, q);
    if (farm.package !== q.productVariant) await deps.farmsWrite.putFarm({ ...farm, package: q.productVariant });
    if (unit.low_connectivity !== q.lowConnectivity) await deps.installs.putUnit({ ...unit, low_connectivity: q.lowConnectivity });
    log.info('installer device config', { farm: farm._id, unit: unit._id, package: q.productVariant, lowConnectivity: q.lowConnectivity });
    return { message: `Device changes saved for ${farm.fonterra_id}: ${q.productVariant}${q.lowConnectivity ? ', low connectivity' : ''}` };
  }),

  /**
   * 'Submit Vat n Changes' (§2, §5): a vat's configuration, or a new vat (no deviceID). The §5
   * rules (required diameter, capacity, height and radar serial; values ≥ 0; O'Clock 0-12) are
   * the contract's; here the vat must be the farm's.
   */
  serve(contracts.VAT_CONFIG, ['farmsWrite', 'installs'], async (q, { deps, log }) => {
    const { farm } = await unitAndFarm(deps, q);
    const vats = await deps.farmsWrite.listDevicesOfFarm(farm._id);
    let device: Device | undefined;
    if (q.deviceID) {
      device = vats.find((d) => d._id === q.deviceID);
      if (!device || device.vat_number !== q.vatNumber) throw new ValidationError(`Device ${q.deviceID} is not vat ${q.vatNumber} of this farm`);
    } else {
      if (vats.some((d) => d.vat_number === q.vatNumber && d.status === 1)) throw new ValidationError(`Vat ${q.vatNumber} already exists`);
      const id = farm.fonterra_id.toLowerCase();
      const known = await deps.farmsWrite.getDevice(`dev-${id}-${q.vatNumber}`);
      if (known && known.farm_id !== farm._id) throw new ValidationError(`Device dev-${id}-${q.vatNumber} belongs to another farm`);
      // A retired device of this farm's vat n comes back; otherwise a new one (named as the seed and the simulator name vats).
      device = known ?? {
        _id: `dev-${id}-${q.vatNumber}`,
        name: `vm-${id}-${q.vatNumber}`,
        farm_id: farm._id,
        vat_number: q.vatNumber,
        status: 1,
        vat_size: q.volume,
        vat_max_height: q.height,
        vat_diameter: q.diameter,
        wedgeHeight: 0,
        vat_volume_offset: 0,
        vat_auto: q.auto,
      };
    }
    const updated: Device = {
      ...device,
      status: 1,
      vat_size: q.volume,
      vat_max_height: q.height,
      vat_diameter: q.diameter,
      vat_auto: q.auto,
      vat_manufacturer: q.manufacturer,
      vat_serial: q.serial,
      radar_serial: q.radarSerial,
      ...(q.wedgeHeight !== undefined ? { wedgeHeight: q.wedgeHeight } : {}),
      ...(q.oclock !== undefined ? { oclock: q.oclock } : {}),
    };
    await deps.farmsWrite.putDevice(updated);
    if (q.vatNumber > farm.install_numVats) await deps.farmsWrite.putFarm({ ...farm, install_numVats: q.vatNumber });
    log.info('installer vat config', { farm: farm._id, device: updated._id, vat: q.vatNumber, added: !q.deviceID, tableVat: isTableVat(q.diameter, q.volume, q.height) });
    return { success: true, result: `Vat ${q.vatNumber} ${q.deviceID ? 'updated' : 'added'}`, device: vatDevice(updated) };
  }),

  /** The install log (§2): newest first, by supply number (blank: every farm) and log type, pages of 50. */
  serve(contracts.INSTALLS, ['installs'], async ({ supplyNumber, logType, page, pageSize }, { deps }) =>
    deps.installs.listEntries({ ...(supplyNumber ? { supplyNumber } : {}), logType, page, pageSize }),
  ),
];
