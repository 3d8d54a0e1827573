import { randomUUID } from 'node:crypto';
import type { Device } from '../../../shared/entities/device';
import type { Farm } from '../../../shared/entities/farm';
import type { CheckType, InstallLogEntry, Unit } from '../../../shared/entities/install';
import { UNIT_CHECK_TIMEOUT_MS, unitStatusSchema, type UnitCheck, type UnitStatus } from '../../../shared/installer/unit-check';
import type { Caller } from '../../lib/caller';
import type { Ports } from '../../ports/action-ports';

/** The installer's name for the log: the profile's, else the sign-in name. */
export const installerName = async (farms: Pick<Ports['farms'], 'getUser'>, caller: Caller): Promise<string> => {
  const user = await farms.getUser(caller.userId);
  return user ? `${user.firstName} ${user.lastName}`.trim() : caller.username;
};

/**
 * Check Install (§2, §4, §7; docs/architecture.md "Installer tools"): a command/reply exchange
 * with the farm's unit over MQTT (shared/installer/unit-check.ts). The unit answers with its
 * status; no answer within the timeout is an offline unit.
 */
type CheckDeps = Pick<Ports, 'farms' | 'installs' | 'unitChecks' | 'now'>;
interface CheckedFarm {
  readonly farm: Farm;
  readonly unit: Unit | undefined;
  /** The farm's active vats, by number. */
  readonly vats: readonly Device[];
}
export const checkedFarm = async (deps: CheckDeps, supplyNumber: string): Promise<CheckedFarm | undefined> => {
  const farm = await deps.farms.findFarmBySupplyNumber(supplyNumber);
  if (!farm) return undefined;
  const [unit, devices] = await Promise.all([deps.installs.unitOfFarm(farm._id), deps.farms.listDevicesOfFarm(farm._id)]);
  return { farm, unit, vats: devices.filter((d) => d.status === 1).sort((a, b) => a.vat_number - b.vat_number) };
};
/**
 * Asks the farm's unit: its status, or why there is none ('no answer' within the timeout, or a
 * farm without a unit; 'unreadable' when it answered with something that is not a status).
 */
export const askUnit = async (deps: CheckDeps, c: CheckedFarm, check: UnitCheck, log: { warn: (msg: string, fields?: Record<string, unknown>) => void }): Promise<{ status: UnitStatus } | { none: 'no answer' | 'no unit' | 'unreadable' }> => {
  if (!c.unit) return { none: 'no unit' };
  const answer = await deps.unitChecks.check(c.unit._id, check);
  if (!answer.answered) return { none: 'no answer' };
  let json: unknown;
  try {
    json = JSON.parse(answer.return_value);
  } catch {
    json = undefined;
  }
  const parsed = unitStatusSchema.safeParse(json);
  if (parsed.success) return { status: parsed.data };
  log.warn('unreadable unit status', { unit: c.unit._id, check, answer: answer.return_value.slice(0, 200) });
  return { none: 'unreadable' };
};
export const NO_ANSWER_TEXT = { 'no answer': `no answer from the unit within ${UNIT_CHECK_TIMEOUT_MS / 1000} s`, 'no unit': 'no unit installed for this farm', unreadable: 'the unit answered something that is not a status' } as const;
/** Every check leaves an install log entry (§3) of its type. */
export const logCheck = async (deps: CheckDeps, caller: Caller, c: CheckedFarm, type: CheckType, result: string, extra: Partial<InstallLogEntry> = {}): Promise<void> => {
  const now = deps.now().toISOString();
  await deps.installs.putEntry({
    _id: randomUUID(),
    created_at: now,
    updated_at: now,
    supply_number: c.farm.fonterra_id.toUpperCase(),
    installer_name: await installerName(deps.farms, caller),
    imei: c.unit?.imei ?? '',
    result,
    numVats: c.vats.length,
    particle_id: c.unit?._id ?? '',
    type,
    ...extra,
  });
};
