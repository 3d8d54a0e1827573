import { randomUUID } from 'node:crypto';
import {
  installerContracts as contracts,
  NO_SUCH_FARM,
  vatsOfInstall,
  type VatDevice,
} from '../../shared/api/actions/installer';
import type { Device } from '../../shared/entities/device';
import type { Farm } from '../../shared/entities/farm';
import { imeiOfUnitThing, unitAttributes, unitThingName, type Unit } from '../../shared/entities/install';
import { sensorBoardsResult } from '../../shared/installer/unit-check';
import { isTableVat } from '../../shared/installer/height-table';
import { serve, type ServedAction } from '../lib/dispatch';
import { optionalEnv } from '../lib/env';
import { ValidationError } from '../lib/errors';
import type { Ports } from '../ports/action-ports';
import type { AuditedWrite } from '../ports/audit';
import { commitChange } from './support/audit';
import { askUnit, checkedFarm, installerName, logCheck, NO_ANSWER_TEXT } from './support/unit-checks';
import { vatOf } from './support/vat-of';
import { settingsTargetOf } from '../lib/settings-target';
import type { InstallPlan } from '../ports/installs';
import { farmIdOf, installResult, makeInstallWorkflow } from '../installer/install-workflow';
import { makeReissue } from '../installer/reissue';
import { Refused } from '../installer/run-engine';

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

const NOT_THIS_FARM = 'This particle is not the unit of this farm';

/**
 * The unit and farm a config change names, checked against each other: the particle must be the
 * farm's unit and the supply number the farm's, so a form edited by hand cannot move a unit or a
 * vat to another farm.
 */
const unitAndFarm = async (deps: Pick<Ports, 'farmsWrite' | 'installs'>, q: { particleID: string; farmID: string; supplyNumber: string; imei?: string }): Promise<{ unit: Unit; farm: Farm }> => {
  const imei = imeiOfUnitThing(q.particleID);
  if (!imei || (q.imei !== undefined && q.imei !== imei)) throw new ValidationError(NOT_THIS_FARM);
  const [unit, farm] = await Promise.all([deps.installs.getUnit(imei), deps.farmsWrite.getFarm(q.farmID)]);
  if (!unit || !farm || unit.farm_id !== farm._id || unitThingName(unit.imei) !== q.particleID) throw new ValidationError(NOT_THIS_FARM);
  if (farm.fonterra_id.toUpperCase() !== q.supplyNumber) throw new ValidationError(`Supply number ${q.supplyNumber} is not this farm's`);
  return { unit, farm };
};

/** The workflow's refusals (a unit or supply number taken, a run busy) are the caller's to fix: a 422 with the message. */
const refusedAs422 = async <T,>(run: () => Promise<T>): Promise<T> => {
  try {
    return await run();
  } catch (err) {
    if (err instanceof Refused) throw new ValidationError(err.message);
    throw err;
  }
};

/** What the unit needs to connect (shown once): its thing, certificate, key, the endpoint and, locally, the CA. */
const unitDownload = (imei: string, cert: { certificateId: string; certificatePem: string; privateKey: string }, endpoint: string) => {
  const rootCaPem = optionalEnv('IOT_ROOT_CA_PEM');
  return { thingName: unitThingName(imei), certificateId: cert.certificateId, certificatePem: cert.certificatePem, privateKey: cert.privateKey, endpoint, ...(rootCaPem ? { rootCaPem } : {}) };
};

const MIN = 60_000;
/** A unit that reported within this long counts as connected (operator §8 'particle is connected'). */
const CONNECTED_WITHIN_MS = 5 * MIN;

/** /api/installer (operator §2, §5, §7): Installer and Admin; also calibration's Apply (VAT_SETTINGS). */
export const installerHandlers: readonly ServedAction[] = [
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

  /**
   * 'Submit Device Changes' (§2): the farm's product variant (its package, which drives billing)
   * and the unit's low-connectivity flag, on the records and the unit's thing; the records and
   * their audit entry in one transaction (decision 050).
   */
  serve(contracts.PARTICLE_CONFIG, ['farms', 'farmsWrite', 'installs', 'provisioning', 'auditedChanges', 'now'], async (q, { deps, log, caller }) => {
    const { unit, farm } = await unitAndFarm(deps, q);
    const writes: AuditedWrite[] = [
      ...(farm.package !== q.productVariant ? [{ kind: 'farmPackage' as const, farmId: farm._id, package: q.productVariant, before: farm.package }] : []),
      ...(unit.low_connectivity !== q.lowConnectivity ? [{ kind: 'unitLowConnectivity' as const, imei: unit.imei, value: q.lowConnectivity, before: unit.low_connectivity }] : []),
    ];
    const message = `Device changes saved for ${farm.fonterra_id}: ${q.productVariant}${q.lowConnectivity ? ', low connectivity' : ''}`;
    if (!writes.length) return { message };
    // The unit's thing carries the same attributes: IoT first, so a refusal there changes
    // nothing here; a refused commit puts the thing's attributes back.
    await deps.provisioning.updateThing(unit._id, unitAttributes(unit.imei, farm.fonterra_id, q.productVariant, q.lowConnectivity));
    const text = (pkg: string, low: boolean) => `${pkg}, low connectivity ${low ? 'on' : 'off'}`;
    try {
      await commitChange(deps, caller, 'farm', { action: 'PARTICLE_CONFIG', target: farm.fonterra_id, before: text(farm.package, unit.low_connectivity), after: text(q.productVariant, q.lowConnectivity) }, writes);
    } catch (err) {
      await deps.provisioning.updateThing(unit._id, unitAttributes(unit.imei, farm.fonterra_id, farm.package, unit.low_connectivity)).catch((undo: unknown) => {
        log.error('unit thing attributes not restored after a refused change', { unit: unit._id, error: undo instanceof Error ? undo.message : String(undo) });
      });
      throw err;
    }
    log.info('installer device config', { farm: farm._id, unit: unit._id, package: q.productVariant, lowConnectivity: q.lowConnectivity });
    return { message };
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

  /**
   * New Install (§2, §5): provisions for real, as a resumable run keyed by the IMEI
   * (lambdas/installer/install-workflow.ts; docs/decisions/040): the supply number claimed, the
   * unit's IoT thing, the farm, its vats, a certificate with the device policy attached to the
   * thing, the unit record, the log entry. The same requestId again resumes the run or answers the
   * finished install with a new certificate (the old answer's key is kept nowhere); an error undoes
   * the run at once; a run stopped part way is finished or undone by the reconciler.
   */
  serve(contracts.NEW_INSTALL, ['farmsWrite', 'installs', 'provisioning', 'now'], async (q, { deps, caller, log }) => {
    const supply = q.supplyNumber;
    const requestId = q.requestId ?? randomUUID();
    const plan: InstallPlan = {
      imei: q.imei,
      supplyNumber: supply,
      dairySupplier: q.dairySupplier,
      productVariant: q.productVariant,
      numVats: q.numVats,
      numDisplays: q.numDisplays,
      lowConnectivity: q.lowConnectivity,
      timezone: q.timezone,
      vats: vatsOfInstall(q as unknown as Record<string, unknown> & { numVats: number }),
      installerName: await installerName(deps.farmsWrite, caller),
    };
    const wdeps = { installs: deps.installs, provisioning: deps.provisioning, now: deps.now, log };
    const workflow = makeInstallWorkflow(wdeps, async (p) => {
      if ((await deps.farmsWrite.findFarmBySupplyNumber(p.supplyNumber)) || (await deps.farmsWrite.getFarm(farmIdOf(p.supplyNumber)))) throw new Refused(`Supply number ${p.supplyNumber} is already installed`);
    });
    const failed = (err: unknown, tail: string) => ({ success: false, result: `The install could not be completed (${String((err as Error).message ?? err)}); ${tail}`, redirect: false });
    let endpoint: string;
    try {
      // Read first: the unit cannot connect without it, and reading it changes nothing.
      endpoint = await deps.provisioning.dataEndpoint();
    } catch (err) {
      log.error('new install: no data endpoint', { supply, imei: q.imei, err });
      return failed(err, 'nothing was kept. Please try again.');
    }
    const outcome = await refusedAs422(() => workflow.install(plan, requestId));
    if (outcome.kind === 'undone') {
      log.error('new install failed; undone', { supply, imei: q.imei, request: requestId, error: outcome.error });
      return failed(outcome.error, 'nothing was kept. Please try again.');
    }
    if (outcome.kind === 'undo failed') {
      log.error('new install failed; undo not finished', { supply, imei: q.imei, request: requestId, error: outcome.error });
      return failed(outcome.error, 'undoing it did not finish: Submit again, or it is finished within minutes by itself.');
    }
    const { run } = outcome.context;
    let cert = { certificateId: run.certificate?.id ?? '', certificatePem: outcome.context.certificatePem ?? '', privateKey: outcome.context.privateKey ?? '' };
    if (outcome.kind === 'made without key') {
      // The answer with this install's key was lost: the retry answers a new one and revokes the old.
      const unit = await deps.installs.getUnit(q.imei);
      cert = await refusedAs422(() => makeReissue(wdeps).reissue({ imei: q.imei, certificateId: unit?.certificate_id, requestId: randomUUID(), supplyNumber: supply, installerName: plan.installerName }));
    }
    log.info('new install', { farm: farmIdOf(supply), unit: unitThingName(q.imei), vats: q.numVats, supplier: q.dairySupplier, certificate: cert.certificateId, request: requestId, resumed: outcome.kind !== 'made' });
    return { success: true, result: installResult(plan), redirect: true, download: unitDownload(q.imei, cert, endpoint) };
  }),

  /**
   * REISSUE_CERTIFICATE: a new key pair and certificate for the farm's unit, then every other
   * certificate on its thing deactivated and detached (lambdas/installer/reissue.ts), logged in
   * the install log. For a lost New Install answer or a lost or leaked key.
   */
  serve(contracts.REISSUE_CERTIFICATE, ['farms', 'installs', 'provisioning', 'now'], async ({ supplyNumber, requestId }, { deps, caller, log }) => {
    const farm = await deps.farms.findFarmBySupplyNumber(supplyNumber);
    if (!farm) throw new ValidationError(`No farm has supply number ${supplyNumber}`);
    const unit = await deps.installs.unitOfFarm(farm._id);
    if (!unit) throw new ValidationError(`No unit is installed for ${supplyNumber}`);
    const install = await deps.installs.getRun(unit.imei, 'install');
    if (install && install.state !== 'done') throw new ValidationError(`The install of ${supplyNumber} is not finished: submit it again`);
    const endpoint = await deps.provisioning.dataEndpoint();
    const wdeps = { installs: deps.installs, provisioning: deps.provisioning, now: deps.now, log };
    const name = await installerName(deps.farms, caller);
    const reissued = await refusedAs422(() => makeReissue(wdeps).reissue({ imei: unit.imei, certificateId: unit.certificate_id, requestId: requestId ?? randomUUID(), supplyNumber: farm.fonterra_id.toUpperCase(), installerName: name }));
    log.info('certificate reissued', { farm: farm._id, unit: unit._id, certificate: reissued.certificateId, revoked: reissued.revoked, by: caller.userId });
    return {
      success: true as const,
      result: `New certificate for ${unit._id}${reissued.revoked.length ? `; revoked ${reissued.revoked.join(', ')}` : ''}`,
      download: unitDownload(unit.imei, reissued, endpoint),
      revoked: [...reissued.revoked],
    };
  }),

  /** The install log (§2): newest first, by supply number (blank: every farm) and log type, pages of 50. */
  serve(contracts.INSTALLS, ['installs'], async ({ supplyNumber, logType, page, pageSize }, { deps }) =>
    deps.installs.listEntries({ ...(supplyNumber ? { supplyNumber } : {}), logType, page, pageSize }),
  ),

  /**
   * CHECK_ONLINE (§4, §7): online when the unit answers the check command in time ('Connection is
   * up'); no answer is 'Connection is down'. lastSeen is the newest reading of the farm's vats.
   */
  serve(contracts.CHECK_ONLINE, ['farms', 'installs', 'readings', 'unitChecks', 'now'], async ({ supplyNumber }, { deps, caller, log }) => {
    const c = await checkedFarm(deps, supplyNumber);
    if (!c) return NO_SUCH_FARM;
    const now = deps.now().toISOString();
    const [asked, latest] = await Promise.all([askUnit(deps, c, 'online', log), Promise.all(c.vats.map((d) => deps.readings.latestReading(d._id, now)))]);
    const seen = latest.map((r) => r?.published_at).filter((t): t is string => t !== undefined);
    const lastSeen = seen.length ? seen.reduce((a, b) => (a > b ? a : b)) : null;
    // An unreadable answer still came from the unit: it is connected.
    const online = 'status' in asked || asked.none === 'unreadable';
    await logCheck(deps, caller, c, 'Check Online', online ? 'Connection is up' : `Connection is down (${NO_ANSWER_TEXT[(asked as { none: keyof typeof NO_ANSWER_TEXT }).none]})`, {
      network: 'status' in asked ? asked.status.network : online ? 'up' : 'down',
    });
    return { online, lastSeen };
  }),

  /** CHECK_DIAGNOSTICS (§7): the unit's signal, disconnects, power source and battery, in the spec's answer shape. */
  serve(contracts.CHECK_DIAGNOSTICS, ['farms', 'installs', 'unitChecks', 'now'], async ({ supplyNumber }, { deps, caller, log }) => {
    const c = await checkedFarm(deps, supplyNumber);
    if (!c) return NO_SUCH_FARM;
    const asked = await askUnit(deps, c, 'diagnostics', log);
    if (!('status' in asked)) {
      // No status: every line unknown, so the screen shows each one not okay (§9).
      await logCheck(deps, caller, c, 'Check Diagnostics', `No diagnostics: ${NO_ANSWER_TEXT[asked.none]}`, { network: 'down', batteryState: 'unknown' });
      return { data: { device: { network: { signal: { strength: null, quality: null }, disconnects: null }, power: { source: null, battery: { state: 'unknown' } }, published_at: null } } };
    }
    const s = asked.status;
    await logCheck(deps, caller, c, 'Check Diagnostics', `Network ${s.network}, signal ${s.signal.strength}% / ${s.signal.quality}%, ${s.disconnects} disconnects, power ${s.power.source}, battery ${s.power.battery.state}`, {
      network: s.network,
      signalStrength: s.signal.strength,
      signalQuality: s.signal.quality,
      disconnects: s.disconnects,
      power: s.power.source,
      batteryState: s.power.battery.state,
    });
    return {
      data: {
        device: {
          network: { signal: { strength: s.signal.strength, quality: s.signal.quality }, disconnects: s.disconnects },
          power: { source: s.power.source, battery: { state: s.power.battery.state } },
          published_at: deps.now().toISOString(),
        },
      },
    };
  }),

  /** CHECK_SENSORBOARDS (§7): 'ok: n vats', or text beginning with 'fault' naming each vat whose board is missing, or the unit not answering. */
  serve(contracts.CHECK_SENSORBOARDS, ['farms', 'installs', 'unitChecks', 'now'], async ({ supplyNumber }, { deps, caller, log }) => {
    const c = await checkedFarm(deps, supplyNumber);
    if (!c) return NO_SUCH_FARM;
    const asked = await askUnit(deps, c, 'sensorboards', log);
    const result = 'status' in asked ? sensorBoardsResult(asked.status.sensorBoards, c.vats.map((d) => d.vat_number)) : `fault: ${NO_ANSWER_TEXT[asked.none]}`;
    await logCheck(deps, caller, c, 'Check Sensor Boards', result, { checkSensorBoards: result });
    return { result };
  }),

  /**
   * /api/installer VAT_SETTINGS (calibration's Apply, operator §7, §8): stores the vat config (the
   * ingest computes every later volume with it) and pushes it to the unit over MQTT, waiting for
   * its reply. return_value 1: the unit applied it; otherwise `connected` says whether the unit
   * reported in the last 5 minutes.
   */
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
