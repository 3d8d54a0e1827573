import * as z from 'zod';
import { knodeUrlSchema } from '../entities/farm';

/**
 * The messages devices publish over MQTT (docs/telemetry.md is the prose version of this file).
 * This schema is the single definition: the ingest validates with it, the simulator and the
 * tests build messages with its types. Bounds reject readings no sensor can produce ("absurd
 * values"), so a faulty board cannot write nonsense into a farmer's charts or alerts.
 */

/** A unit's vats' readings: dts/<unit>/<vat 1-4>/telemetry, one thing per controller unit. */
export const UNIT_TELEMETRY_TOPIC_FILTER = 'dts/+/+/telemetry';
export const unitTelemetryTopic = (unit: string, vat: number): string => `dts/${unit}/${vat}/telemetry`;
/** Both channels; the ingest rule subscribes to this and dispatches on the last topic level. */
export const DEVICE_TOPIC_FILTER = 'dts/+/+';

export const telemetryTopic = (thingName: string): string => `dts/${thingName}/telemetry`;
/** Commands to a unit and its replies (lambdas/adapters/iot/device-commands.ts has the protocol). */
export const settingsCommandTopic = (thing: string): string => `dts/${thing}/cmd/settings`;
export const replyTopic = (thing: string): string => `dts/${thing}/cmd/reply`;
export const knodeTopic = (thingName: string): string => `dts/${thingName}/knode`;

/**
 * The topics the device policy (cdk/lib/constructs/telemetry.ts) lets a thing publish to: its
 * vats' readings as a unit (dts/<unit>/1-4/telemetry), its readings on the deprecated per-vat
 * topic, its knode assets, and its answers to commands. The local broker's mutual-TLS port
 * applies the same list.
 */
export const devicePublishTopics = (thing: string): string[] => [
  ...[1, 2, 3, 4].map((vat) => unitTelemetryTopic(thing, vat)),
  telemetryTopic(thing),
  knodeTopic(thing),
  replyTopic(thing),
];

/**
 * The sender of a unit's vat readings, as the thing registry resolves it (FarmRepository
 * resolveThing): `<unit>/<vat>`, the unit's farm's vat of that number.
 */
const unitVatSender = (unit: string, vat: number): string => `${unit}/${vat}`;
export const parseUnitVatSender = (sender: string): { unit: string; vat: number } | undefined => {
  const m = /^([^/+#]{1,128})\/([1-4])$/.exec(sender);
  return m ? { unit: m[1] as string, vat: Number(m[2]) } : undefined;
};

/**
 * A device topic → who sent it and on which channel, or undefined for any other topic. `thing` is
 * the sender as the thing registry resolves it: the thing name on `dts/<thing>/<channel>` (a vat
 * device on its deprecated per-vat topic, or a knode gateway), `<unit>/<vat>` on a unit's
 * `dts/<unit>/<vat>/telemetry` (unitVatSender).
 */
export const parseDeviceTopic = (topic: string): { thing: string; channel: 'telemetry' | 'knode' } | undefined => {
  const m = /^dts\/([^/+#]{1,128})\/(telemetry|knode)$/.exec(topic);
  if (m) return { thing: m[1] as string, channel: m[2] as 'telemetry' | 'knode' };
  const u = /^dts\/([^/+#]{1,128})\/([1-4])\/telemetry$/.exec(topic);
  return u ? { thing: unitVatSender(u[1] as string, Number(u[2])), channel: 'telemetry' } : undefined;
};

/**
 * Message types a device sends (operator §2 'Device series screen'): DATA is the regular
 * once-a-minute reading; AM (alarm) and EM/EM1-EM3 (event) are sent when something changes;
 * TEST from the installer's check; STATUS, CONFIG and DIAG answer operator requests (hidden from
 * the farmer's alert list).
 */
const MESSAGE_TYPES = ['DATA', 'AM', 'EM', 'EM1', 'EM2', 'EM3', 'TEST', 'STATUS', 'CONFIG', 'DIAG'] as const;
const messageTypeSchema = z.enum(MESSAGE_TYPES);
export type MessageType = z.infer<typeof messageTypeSchema>;

/**
 * The vat controller's state machine (farmer §3 Storage reading). `storage` is milk held
 * between milkings; som/eom (start/end of milking) count as milking (farmer §4).
 */
const STATE_MACHINE = ['startup', 'empty', 'som', 'milking', 'eom', 'storage'] as const;
const stateMachineSchema = z.enum(STATE_MACHINE);
export type StateMachine = z.infer<typeof stateMachineSchema>;
export const isMilkingState = (s: StateMachine | null | undefined): boolean => s === 'som' || s === 'milking' || s === 'eom';

/**
 * The Vat-Man Auto controller's selector (farmer §3 notification types 112-114): `auto` the
 * controller runs the vat; `manual` a person has overridden it (ManualOverride); `off` it is
 * switched off (OffPosition); `unknown` the controller gives no status (VatControl status
 * unknown). Sent only by vats with a Vat-Man Auto controller.
 */
const CONTROLLER_STATUS = ['auto', 'manual', 'off', 'unknown'] as const;
export const controllerStatusSchema = z.enum(CONTROLLER_STATUS);
export type ControllerStatus = z.infer<typeof controllerStatusSchema>;

/** A temperature probe: °C, null when the probe is absent or disconnected. */
const temperature = z.number().min(-40).max(120).nullable().optional();

/** Device time: ISO 8601 with a zone (the device's RTC is NTP-synchronised UTC). */
const deviceTimeSchema = z.iso.datetime({ offset: true, message: 'published_at must be an ISO 8601 date-time with a zone' });

/** A device's milk quality estimates (farmer §3), as sent and as the readings answers give them back. */
export const deviceQualitySchema = z.object({
  currentEstCFU: z.number().min(0).max(20).nullable().optional(),
  pickupEstCFU: z.number().min(0).max(20).nullable().optional(),
  alert: z.number().int().min(0).max(10).nullable().optional(),
  agitator: z.object({ timeAgitatorStop: z.number().min(0).nullable().optional(), timeInVat: z.number().min(0).nullable().optional() }).optional(),
});

export const telemetryMessageSchema = z
  .object({
    /** When the device took the reading (device clock, UTC). The key of the reading. */
    published_at: deviceTimeSchema,
    message_type: messageTypeSchema.default('DATA'),
    /** Radar: distance from the sensor at the top of the vat down to the milk surface, mm. */
    radar_distance: z.number().min(0).max(10_000).nullable().optional(),
    /** Milk depth, mm, where the device computes it itself (else: vat height minus radar distance). */
    milk_level: z.number().min(0).max(10_000).nullable().optional(),
    temp1: temperature, // vat
    temp2: temperature, // inlet
    temp3: temperature, // plate cooler outlet
    temp4: temperature, // ambient
    temp5: temperature, // CIP (wash) line
    temp6: temperature, // spare probe (operator §3 'Unknow')
    /** Line pressure, kPa. */
    pressure: z.number().min(-200).max(2_000).nullable().optional(),
    /** Agitator shaft speed, rpm (vibration on the operator screens). */
    shaft_rpm: z.number().min(0).max(10_000).nullable().optional(),
    /** 1 running, 0 stopped (farmer §4); null when the sensor reports nothing. */
    agitator_status: z.union([z.literal(0), z.literal(1)]).nullable().optional(),
    state_machine: stateMachineSchema.nullable().optional(),
    /** Vat-Man Auto only: the controller's selector position; absent on other vats. */
    controller_status: controllerStatusSchema.nullable().optional(),
    /**
     * Battery/charger register as hex (operator §3 Battery record): odd = on mains and
     * charging, even = mains off (running on the battery).
     */
    battery: z
      .object({ status: z.string().regex(/^(0x)?[0-9a-fA-F]{1,8}$/, 'battery.status must be a hex string') })
      .optional(),
    /** Plate cooler: milk and water temperatures at the cooler inlet, °C. */
    cooler: z.object({ milk_in: temperature, water_in: temperature }).optional(),
    /** Milk quality estimates, where the device's model computes them (farmer §3). */
    quality: deviceQualitySchema.optional(),
    firmware_version: z.string().max(32).optional(),
    system_version: z.string().max(32).optional(),
    /** Cellular signal: strength and quality in percent, reconnects since boot. */
    signal: z
      .object({
        strength: z.number().min(0).max(100).nullable().optional(),
        quality: z.number().min(0).max(100).nullable().optional(),
        disconnects: z.number().int().min(0).nullable().optional(),
      })
      .optional(),
    /** Monotonic message counter since boot (diagnostics only). */
    seq: z.number().int().min(0).optional(),
  })
  .strict();
export type TelemetryMessage = z.infer<typeof telemetryMessageSchema>;
/** What a device may send: defaults not applied yet (message_type may be missing). */
export type TelemetryMessageInput = z.input<typeof telemetryMessageSchema>;

/** Knode asset kinds feeding the module dashboard (farmer §2.4). */
export const KNODE_TYPES = ['Tank', 'TravellingIrrigator', 'PumpEffluentSurface', 'SoilProbe', 'WeatherStation'] as const;

/**
 * A knode gateway's reading of one asset. Metric meanings per type: Tank 1 level %; irrigator 1
 * speed m/h; pump 1 power kW; SoilProbe 1 temperature at 10 cm °C, 2 moisture at 10 cm %;
 * WeatherStation 1 rain today mm, 2 air °C, 3 humidity %, 4 wind km/h, 5 wind direction °,
 * 6 solar radiation W/m².
 */
export const knodeMessageSchema = z
  .object({
    published_at: deviceTimeSchema,
    type: z.enum(KNODE_TYPES),
    asset_name: z.string().min(1).max(80),
    metric_value_1: z.number().min(-1_000).max(100_000).nullable().optional(),
    metric_value_2: z.number().min(-1_000).max(100_000).nullable().optional(),
    metric_value_3: z.number().min(-1_000).max(100_000).nullable().optional(),
    metric_value_4: z.number().min(-1_000).max(100_000).nullable().optional(),
    metric_value_5: z.number().min(-1_000).max(100_000).nullable().optional(),
    metric_value_6: z.number().min(-1_000).max(100_000).nullable().optional(),
    unit_1: z.string().max(16).optional(),
    url: knodeUrlSchema.optional(),
    alarm_active: z.boolean().optional(),
  })
  .strict();
export type KnodeMessage = z.infer<typeof knodeMessageSchema>;

/** Odd battery register: on mains and charging; even: mains off (operator §3). */
export const isOnMains = (status: string): boolean => (Number.parseInt(status.replace(/^0x/i, ''), 16) & 1) === 1;
