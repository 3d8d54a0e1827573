import * as z from 'zod';

/**
 * The dairy company's telemetry gateway (operator §1, §3 "External interface payloads", §7
 * "External telemetry interface", §8 documented external errors). One definition for the
 * exporter (lambdas/dairy), the local gateway stand-in (local/stand-ins/dairy-gateway.ts) and the
 * documentation page: what one sends, the other checks, and the page shows.
 */

export const DAIRY_EVENT_KINDS = ['milkingevent', 'collectionevent', 'vatexceptions'] as const;
export type DairyEventKind = (typeof DAIRY_EVENT_KINDS)[number];

/** `/v5/milkvattelemetry/{supplierId}/{kind}` (operator §7). */
export const gatewayPath = (supplierId: string, kind: DairyEventKind | 'dockets'): string => `/v5/milkvattelemetry/${encodeURIComponent(supplierId)}/${kind}`;

/** Date-times as the gateway takes them: local-free ISO 8601 in UTC, seconds, no fraction: 2026-11-22T05:31:00Z. */
export const GATEWAY_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
export const gatewayDateTime = (iso: string): string => `${new Date(iso).toISOString().slice(0, 19)}Z`;

const milkingPeriodSchema = z.object({ StartTime: z.number().int().min(0).max(1439), Duration: z.number().int().min(1).max(1440) });
const milkingTimeWindowSchema = z.object({
  UserID: z.string(),
  MilkingSchedule: z.object({
    CleanInPlaceTime: z.number().int(),
    Confirmed: z.boolean(),
    MilkingCycle: z.string(),
    StartDate: z.string(),
    MilkingPeriods: z.array(milkingPeriodSchema).min(1),
  }),
});

export const milkingEventSchema = z.object({
  TotalVolume: z.number(),
  MilkingDateTime: z.string(),
  VatMilkingDetails: z.array(z.object({ VatID: z.number().int(), VatVolume: z.number() })).min(1),
  MilkingTimeWindow: milkingTimeWindowSchema.optional(),
});
export type MilkingEvent = z.infer<typeof milkingEventSchema>;

/**
 * Temperatures travel as decimals with exactly one decimal place ("Error 1 - Temperature '9' is
 * not a decimal to 1 decimal place"): JSON numbers lose a trailing ".0", so the payload holds them
 * as text and `gatewayJson` writes that text as a bare number token (4.0, not 4 or "4.0").
 */
const temperatureText = z.string().regex(/^-?\d+\.\d$/);
export const temperatureOf = (celsius: number): string => (Math.round(celsius * 10) / 10).toFixed(1);

export const COLLECTION_REQUIRED_FIELDS = [
  'CollectionDateTime',
  'AverageTemperatureAtCollection',
  'TotalVolumeBeforeCollection',
  'TotalVolumeAfterCollection',
  'CollectionOccurredDuringMilking',
  'VatCollectionDetails',
] as const;

export const collectionEventSchema = z.object({
  CollectionDateTime: z.string(),
  AverageTemperatureAtCollection: temperatureText,
  TotalVolumeBeforeCollection: z.number(),
  TotalVolumeAfterCollection: z.number(),
  CollectionOccurredDuringMilking: z.boolean(),
  VatCollectionDetails: z
    .array(z.object({ VatID: z.number().int(), VatVolumeBeforeCollection: z.number(), VatVolumeAfterCollection: z.number(), VatTemperature: temperatureText }))
    .min(1),
});
export type CollectionEvent = z.infer<typeof collectionEventSchema>;

export const VAT_EXCEPTION_TYPES = ['ApcLow', 'ApcModerate', 'ApcHigh', 'ApcMilkAcceptanceRiskExceeded', 'LateMilking'] as const;
export type VatExceptionType = (typeof VAT_EXCEPTION_TYPES)[number];

export const vatExceptionSchema = z.object({
  VatID: z.number().int(),
  Type: z.enum(VAT_EXCEPTION_TYPES),
  DateTime: z.string(),
  /** Keys seen (operator §3): APC (number), Agitator (duration text), Limit (duration text). */
  Description: z.object({ APC: z.number().optional(), Agitator: z.string().optional(), Limit: z.string().optional() }),
});
export type VatException = z.infer<typeof vatExceptionSchema>;

/** Every answer is `{code, message}` (operator §7). */
export const gatewayAnswerSchema = z.object({ code: z.number().int(), message: z.string() });
export type GatewayAnswer = z.infer<typeof gatewayAnswerSchema>;

/** The documented messages, word for word (operator §8). */
export const GATEWAY_MESSAGES = {
  farmInvalid: (id: string) => `Error 2 - Farm ${id} is invalid`,
  milkingDateInvalid: 'MilkingDateTime format is invalid',
  fieldMissing: (field: string) => `Field - ${field} missing; check all required fields are in request message`,
  temperatureNotDecimal: (value: string) => `Error 1 - Temperature '${value}' is not a decimal to 1 decimal place`,
  windowUnavailable: 'Error 1 - Requested start date and first milking period start time not available',
  milkingUpdated: (id: string) => `MilkingEvent updated for SupplierID: ${id}`,
  collectionUpdated: (id: string) => `CollectionEvent updated for SupplierID: ${id}`,
  // The documented success message has no space after the colon; kept as documented.
  exceptionUpdated: (id: string) => `VatException updated for SupplierID:${id}`,
} as const;

/** Fields whose values are temperatures: written as one-decimal number tokens. */
const TEMPERATURE_KEYS = ['AverageTemperatureAtCollection', 'VatTemperature'] as const;

/** The request body as the gateway reads it: JSON, temperatures as bare one-decimal numbers. */
export const gatewayJson = (payload: unknown): string =>
  JSON.stringify(payload).replace(new RegExp(`"(${TEMPERATURE_KEYS.join('|')})":"(-?\\d+\\.\\d)"`, 'g'), '"$1":$2');

/**
 * Pretty-printed JSON of something holding a parsed request (the farmer's log): a temperature the
 * gateway received as 4.0 reads back as 4 once parsed, so whole temperatures get their ".0" again.
 */
export const withTemperatureDecimals = (prettyJson: string): string =>
  prettyJson.replace(new RegExp(`"(${TEMPERATURE_KEYS.join('|')})": (-?\\d+)(?=[,\\n]|$)`, 'g'), '"$1": $2.0');

/**
 * A tanker docket (the company's record of a pickup, per vat): the company's volume and
 * temperature. Operator §7 lists "bulk data" without detail; this is the shape the exporter reads
 * from `/v5/milkvattelemetry/{supplierId}/dockets?from&to`.
 */
export const docketSchema = z.object({
  /** Letters, digits, dots, colons, underscores and hyphens, at most 64 (the company's are like `31245-1-2026-11-20T14:10:00Z`). */
  DocketID: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/, 'DocketID must be 1 to 64 letters, digits, dots, colons, underscores or hyphens'),
  VatID: z.number().int(),
  /** Part of the docket's key in the store and compared as text with other times: an ISO 8601 date-time in UTC only. */
  PickupDateTime: z.iso.datetime({ error: 'PickupDateTime must be an ISO 8601 date-time in UTC (2026-11-20T14:10:00Z)' }),
  Volume: z.number(),
  Temperature: z.number(),
});
export type Docket = z.infer<typeof docketSchema>;

/**
 * The most dockets one answer may hold. The exporter asks for one farm's last week: a farm is
 * collected a few times a day per vat, so a real answer is tens to a few hundred dockets (4 vats ×
 * 4 pickups a day × 7 days = 112). 5,000 is far beyond any farm yet bounds what one run parses and
 * writes (one PutItem each) within the exporter's time; a longer list is refused whole, as no
 * week of one farm.
 */
const MAX_DOCKETS = 5_000;
export const docketListSchema = z.array(z.unknown()).max(MAX_DOCKETS, `The dairy gateway answered more than ${MAX_DOCKETS} dockets`);

/** A docket the gateway sent that was not taken: its place in the answer, its id when it had a readable one, and why. */
export interface RefusedDocket {
  readonly index: number;
  readonly DocketID?: string;
  readonly reason: string;
}

/** The dockets of one answer, each checked on its own: a bad one is refused (and said why), the rest are kept. */
export const sortDockets = (entries: readonly unknown[]): { dockets: Docket[]; refused: RefusedDocket[] } => {
  const dockets: Docket[] = [];
  const refused: RefusedDocket[] = [];
  entries.forEach((entry, index) => {
    const parsed = docketSchema.safeParse(entry);
    if (parsed.success) {
      dockets.push(parsed.data);
      return;
    }
    const id = (entry as { DocketID?: unknown } | null)?.DocketID;
    refused.push({
      index,
      // Only so much of a bad id goes to the log.
      ...(typeof id === 'string' ? { DocketID: id.slice(0, 80) } : {}),
      reason: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
    });
  });
  return { dockets, refused };
};
