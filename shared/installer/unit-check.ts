import * as z from 'zod';

/**
 * Check Install's exchange with a farm's unit (operator §4, §7), over MQTT like the
 * controller settings (lambdas/adapters/iot/device-commands.ts has the protocol):
 *  - the platform publishes `{ request_id, check }` to `dts/<unit>/cmd/check` (QoS 1);
 *  - the unit answers `{ request_id, return_value: <UnitStatus> }` on `dts/<unit>/cmd/reply`.
 * The unit answers every check with its whole status; CHECK_ONLINE needs only that it answered,
 * CHECK_DIAGNOSTICS reads network and power, CHECK_SENSORBOARDS the boards. A unit that does not
 * answer within UNIT_CHECK_TIMEOUT_MS is offline (docs/architecture.md "Installer tools").
 * The simulator (local/simulator) answers as the demo farms' units do.
 */
const UNIT_CHECKS = ['online', 'diagnostics', 'sensorboards'] as const;
export type UnitCheck = (typeof UNIT_CHECKS)[number];

export const unitCheckTopic = (unit: string): string => `dts/${unit}/cmd/check`;
export const UNIT_CHECK_TOPIC_FILTER = 'dts/+/cmd/check';

/** How long the installer's check waits for the unit's answer. */
export const UNIT_CHECK_TIMEOUT_MS = 6_000;

export const unitCheckCommandSchema = z.object({ request_id: z.string().min(1).max(100), check: z.enum(UNIT_CHECKS) }).strict();

/** The charger's state: okay when charging or charged (§9). */
const BATTERY_STATES = ['charging', 'charged', 'discharging', 'unknown'] as const;
/** The unit's supply: VIN (mains) or BATTERY; power is okay only on VIN (§9). */
const POWER_SOURCES = ['VIN', 'BATTERY'] as const;

const percent = z.number().min(0).max(100);
export const unitStatusSchema = z
  .object({
    /** The cellular network the unit is on (e.g. 'LTE'). */
    network: z.string().max(40),
    signal: z.object({ strength: percent, quality: percent }).strict(),
    /** Cellular disconnects since the unit started. */
    disconnects: z.number().int().min(0),
    power: z.object({ source: z.enum(POWER_SOURCES), battery: z.object({ state: z.enum(BATTERY_STATES) }).strict() }).strict(),
    /** Each vat's sensor board: its temperature probe and its radar answer. */
    sensorBoards: z
      .array(z.object({ vat: z.number().int().min(1).max(4), probe: z.boolean(), radar: z.boolean() }).strict())
      .max(4),
  })
  .strict();
export type UnitStatus = z.infer<typeof unitStatusSchema>;

/** CHECK_SENSORBOARDS's text (§7): 'ok: n vats', or 'fault: …' naming each vat whose board is missing or not answering. */
export const sensorBoardsResult = (boards: UnitStatus['sensorBoards'], vatNumbers: readonly number[]): string => {
  if (vatNumbers.length === 0) return 'fault: no vats set up';
  const faults = vatNumbers.flatMap((n) => {
    const b = boards.find((x) => x.vat === n);
    if (!b) return [`vat ${n} sensor board missing`];
    const missing = [b.probe ? '' : 'temperature probe', b.radar ? '' : 'radar'].filter(Boolean);
    return missing.length ? [`vat ${n} ${missing.join(' and ')} not answering`] : [];
  });
  return faults.length ? `fault: ${faults.join('; ')}` : `ok: ${vatNumbers.length} vat${vatNumbers.length === 1 ? '' : 's'}`;
};
