import type { Device } from '../../shared/entities/device';
import type { Farm } from '../../shared/entities/farm';
import { unitAttributes, unitThingName, type Unit } from '../../shared/entities/install';
import { localDayOf } from '../../shared/time/local-day';
import type { InstallPlan, InstallRun } from '../ports/installs';
import { certificateSteps } from './certificate-steps';
import { leaseLive, LostRun, newRun, Refused, runEngine, takeOver, type RunContext, type Step, type WorkflowDeps } from './run-engine';

export const farmIdOf = (supplyNumber: string) => `farm-${supplyNumber.toLowerCase()}`;
const deviceOf = (plan: InstallPlan, v: InstallPlan['vats'][number]): Device => {
  const id = plan.supplyNumber.toLowerCase();
  return {
    _id: `dev-${id}-${v.vatNumber}`,
    name: `vm-${id}-${v.vatNumber}`,
    farm_id: farmIdOf(plan.supplyNumber),
    vat_number: v.vatNumber,
    status: 1,
    vat_size: v.volume,
    vat_max_height: v.height,
    vat_diameter: v.diameter,
    wedgeHeight: 0,
    vat_volume_offset: 0,
    vat_auto: v.auto,
    vat_manufacturer: v.manufacturer,
    vat_serial: v.serial,
    radar_serial: v.radarSerial,
    ...(v.oclock !== undefined ? { oclock: v.oclock } : {}),
  };
};
const farmOf = (plan: InstallPlan, createdAt: string): Farm => ({
  _id: farmIdOf(plan.supplyNumber),
  fonterra_id: plan.supplyNumber,
  supplier: plan.dairySupplier as Farm['supplier'],
  package: plan.productVariant,
  is_milk_enabled: true,
  power: true,
  knode: { is_water_enabled: false, is_effluent_enabled: false, is_land_enabled: false, is_weather_enabled: false },
  timezone: plan.timezone,
  auto_check: true,
  fonterra_api_status: false,
  harvest: false,
  install_numVats: plan.numVats,
  // The farm's own day (§9 dates are the farm's): a morning install in New Zealand is the UTC day before.
  install_date: localDayOf(Date.parse(createdAt), plan.timezone),
});
export const installResult = (plan: Pick<InstallPlan, 'supplyNumber' | 'numVats'>) => `Vat-Man installed for ${plan.supplyNumber}: ${plan.numVats} vat${plan.numVats === 1 ? '' : 's'}`;

const planOf = (run: InstallRun): InstallPlan => {
  if (!run.plan) throw new Error(`install run of ${run.imei} has no plan`);
  return run.plan;
};

/**
 * New Install's steps, in order (docs/areas/devices-and-installer.md "Install workflow"). Each is
 * idempotent and conditional on the run's request id; the certificate comes late so a resumed run
 * that lost its private key replaces only the certificate. UNIT_STEP is the commit point: once
 * the unit is written the install exists, and a stuck run is finished, never undone.
 */
const installSteps = (deps: WorkflowDeps): readonly Step[] => {
  const p = deps.provisioning;
  const i = deps.installs;
  return [
    {
      name: 'supply number',
      run: async ({ run }) => {
        if (!(await i.claimSupply(planOf(run).supplyNumber, run.imei, run.request_id))) throw new Refused(`Supply number ${planOf(run).supplyNumber} is already installed or being installed`);
      },
      undo: ({ run }) => i.releaseSupply(planOf(run).supplyNumber, run.request_id),
    },
    {
      name: 'CreateThing',
      run: ({ run }) => {
        const plan = planOf(run);
        return p.createThing(unitThingName(run.imei), unitAttributes(run.imei, plan.supplyNumber, plan.productVariant, plan.lowConnectivity));
      },
      undo: ({ run }) => p.deleteThing(unitThingName(run.imei)),
    },
    {
      name: 'farm',
      run: async ({ run }) => {
        if (!(await i.createFarm(farmOf(planOf(run), run.created_at), run.request_id))) throw new Refused(`Supply number ${planOf(run).supplyNumber} is already installed`);
      },
      undo: ({ run }) => i.removeFarm(farmIdOf(planOf(run).supplyNumber), run.request_id),
    },
    {
      name: 'devices',
      run: async ({ run }) => {
        const plan = planOf(run);
        for (const v of plan.vats) {
          const d = deviceOf(plan, v);
          if (!(await i.createDevice(d, run.request_id))) throw new Refused(`Device ${d._id} belongs to another farm`);
        }
      },
      undo: async ({ run }) => {
        const plan = planOf(run);
        for (const v of plan.vats) await i.removeDevice(deviceOf(plan, v), run.request_id);
      },
    },
    ...certificateSteps(deps),
    {
      name: 'unit',
      run: async ({ run }) => {
        const plan = planOf(run);
        const unit: Unit = { _id: unitThingName(run.imei), imei: run.imei, farm_id: farmIdOf(plan.supplyNumber), low_connectivity: plan.lowConnectivity, num_displays: plan.numDisplays, created_at: run.created_at };
        if (!(await i.createUnit({ ...unit, ...(run.certificate ? { certificate_id: run.certificate.id } : {}) }, run.request_id))) throw new Refused(`IMEI ${run.imei} is already installed`);
      },
      undo: ({ run }) => i.removeUnit(run.imei, run.request_id),
    },
    {
      name: 'install log',
      // The request id is the entry's id: logged again, it is the same entry.
      run: ({ run }) => {
        const plan = planOf(run);
        return i.putEntry({ _id: run.request_id, created_at: run.created_at, updated_at: run.created_at, supply_number: plan.supplyNumber, installer_name: plan.installerName, imei: run.imei, result: installResult(plan), numVats: plan.numVats, particle_id: unitThingName(run.imei) });
      },
    },
  ];
};
const stepsDoneAt = (name: string): number => {
  const names = installSteps({} as WorkflowDeps).map((s) => s.name);
  const at = names.indexOf(name);
  if (at < 0) throw new Error(`no install step ${name}`);
  return at;
};
/** Steps done once the unit is written: the commit point. */
const UNIT_STEP = stepsDoneAt('unit') + 1;
/** Steps done before the certificate is made: a resumed run without the private key goes back to here. */
const CERTIFICATE_STEP = stepsDoneAt('CreateKeysAndCertificate');

type InstallOutcome =
  | { readonly kind: 'made'; readonly context: RunContext }
  /** The install exists but this invocation holds no key for it (a retry after the answer was lost): a new certificate is due. */
  | { readonly kind: 'made without key'; readonly context: RunContext }
  | { readonly kind: 'undone'; readonly error: string }
  | { readonly kind: 'undo failed'; readonly error: string };

/**
 * NEW_INSTALL as a resumable run keyed by the IMEI (docs/decisions/040): a new request starts a
 * run; the same request again resumes it (or answers the finished install); another request for
 * a unit with a live run is refused, and one with a stale run has it finished or undone first.
 */
export const makeInstallWorkflow = (deps: WorkflowDeps, preCheck: (plan: InstallPlan) => Promise<void> = async () => undefined) => {
  const engine = runEngine(deps, installSteps(deps));

  /** Drives a run in hand forward; on an error (not a crash) undoes it at once. */
  const drive = async (c: RunContext): Promise<InstallOutcome> => {
    // A certificate made by an earlier invocation: its key is gone, so before the commit point it is replaced.
    if (!c.privateKey && c.run.step > CERTIFICATE_STEP && c.run.step < UNIT_STEP) await engine.back(c, CERTIFICATE_STEP);
    try {
      await engine.forward(c);
      return { kind: c.privateKey ? 'made' : 'made without key', context: c };
    } catch (err) {
      if (err instanceof LostRun) throw new Refused('This install is being made by another submission: try again in a minute');
      if (c.run.step >= UNIT_STEP) {
        // The install exists: what is left (the log entry) is the reconciler's, the answer this one's.
        deps.log.error('install workflow: a step after the commit point failed; the reconciler finishes it', { imei: c.run.imei, err });
        return { kind: c.privateKey ? 'made' : 'made without key', context: c };
      }
      const error = String((err as Error).message ?? err);
      try {
        await engine.backward(c, error);
      } catch (undoErr) {
        return { kind: 'undo failed', error: `${error}; ${String((undoErr as Error).message ?? undoErr)}` };
      }
      if (err instanceof Refused) throw err;
      return { kind: 'undone', error };
    }
  };

  /** A stuck run (its lease ended): finished past the commit point, else undone. Nothing when another invocation has it. */
  const repair = async (run: InstallRun): Promise<'finished' | 'undone' | 'busy'> => {
    const c = await takeOver(deps, run);
    if (!c) return 'busy';
    if (c.run.state !== 'undoing' && c.run.step >= UNIT_STEP) {
      await engine.forward(c);
      return 'finished';
    }
    await engine.backward(c, c.run.error ?? 'stuck: undone by the reconciler');
    return 'undone';
  };

  return {
    repair,
    async install(plan: InstallPlan, requestId: string): Promise<InstallOutcome> {
      for (let attempt = 0; attempt < 4; attempt += 1) {
        const run = await deps.installs.getRun(plan.imei, 'install');
        if (!run) {
          if (await deps.installs.getUnit(plan.imei)) throw new Refused(`IMEI ${plan.imei} is already installed`);
          await preCheck(plan);
          const created = newRun(deps, { imei: plan.imei, kind: 'install', request_id: requestId, plan });
          if (!(await deps.installs.createRun(created))) continue;
          return drive({ run: created });
        }
        if (run.request_id !== requestId) {
          if (run.state === 'done') throw new Refused(`IMEI ${plan.imei} is already installed`);
          if (leaseLive(deps, run)) throw new Refused(`IMEI ${plan.imei} is being installed by another submission: try again in a minute`);
          await repair(run);
          continue;
        }
        // The same submission again: its answer was lost, or the invocation stopped part way.
        if (run.state === 'done') return { kind: 'made without key', context: { run } };
        if (leaseLive(deps, run)) throw new Refused('This install is still being made: try again in a minute');
        const c = await takeOver(deps, run);
        if (!c) continue;
        if (c.run.state === 'undoing') {
          await engine.backward(c, c.run.error);
          continue;
        }
        return drive(c);
      }
      throw new Refused(`IMEI ${plan.imei} is being installed by another submission: try again in a minute`);
    },
  };
};
