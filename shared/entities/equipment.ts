import * as z from 'zod';

/*
 * A farm's milk-cooling plant (farmer §2.13, §3 Equipment item): one pre-cooling system on the milk
 * line and, per vat, its kind and its fridge units. The spec's catalogue, in its own words:
 *
 *   type 1 pre-cooling: value 0 None, 1 Chilling, 2 Ice Bank
 *   type 2 vat:         value 1 Vat, 2 Vat with sidewall
 *   sub_value:          value 1: Fridge1; value 2: Fridge1, Fridge2, Fridge3
 *   "types 3 and 4 are sub lists"
 *
 * Reading of the last line (docs/architecture.md, "Equipment"): 3 and 4 number the two sub lists
 * (list 3 for a plain Vat, list 4 for a Vat with sidewall); they are not kinds of item, so an
 * item's type is 1 or 2 and anything else is refused. sub_value N is the vat's N fridge units
 * (Fridge2: two fridges). A pre-cooling item's id is 1 (a farm has one milk line) and it has no
 * sub list: its sub_value is 0. A vat item's id is the vat's number (the builder's 'Vat {id}').
 */

export const EQUIPMENT_TYPES = { preCooling: 1, vat: 2 } as const;

/** The pre-cooling system's id: a farm has one. */
const PRE_COOLING_ID = 1;

export const PRE_COOLING_VALUES = [
  { value: 0, label: 'None' },
  { value: 1, label: 'Chilling' },
  { value: 2, label: 'Ice Bank' },
] as const;
export type PreCoolingValue = (typeof PRE_COOLING_VALUES)[number]['value'];

/** The sub lists, numbered as the spec numbers them. */
const SUB_LISTS = {
  3: ['Fridge1'],
  4: ['Fridge1', 'Fridge2', 'Fridge3'],
} as const;

export const VAT_VALUES = [
  { value: 1, label: 'Vat', subList: 3 },
  { value: 2, label: 'Vat with sidewall', subList: 4 },
] as const;
export type VatValue = (typeof VAT_VALUES)[number]['value'];

/** The sub-types (fridge units) a vat of `value` may have: [{ value: 1, label: 'Fridge1' }, …]. */
export const subTypesOf = (value: number): readonly { value: number; label: string }[] => {
  const list = VAT_VALUES.find((v) => v.value === value)?.subList;
  return list === undefined ? [] : SUB_LISTS[list].map((label, i) => ({ value: i + 1, label }));
};

export const preCoolingLabel = (value: number): string | undefined => PRE_COOLING_VALUES.find((v) => v.value === value)?.label;
export const vatValueLabel = (value: number): string | undefined => VAT_VALUES.find((v) => v.value === value)?.label;

/** An equipment item as stored and answered. */
export const equipmentItemSchema = z.object({
  type: z.union([z.literal(EQUIPMENT_TYPES.preCooling), z.literal(EQUIPMENT_TYPES.vat)]),
  id: z.number().int(),
  value: z.number().int(),
  sub_value: z.number().int(),
});
export type EquipmentItem = z.infer<typeof equipmentItemSchema>;

/** A vat as the plant shows it: its number, kind and fridge units. */
export interface PlantVat {
  readonly id: number;
  readonly value: VatValue;
  readonly sub_value: number;
}
export interface Plant {
  readonly preCooling: PreCoolingValue;
  readonly vats: readonly PlantVat[];
}

/** What a farm has before anyone describes it: no pre-cooling, each vat plain with one fridge. */
const DEFAULT_VAT: Omit<PlantVat, 'id'> = { value: 1, sub_value: 1 };

const isPreCoolingValue = (v: number): v is PreCoolingValue => PRE_COOLING_VALUES.some((p) => p.value === v);
const isVatValue = (v: number): v is VatValue => VAT_VALUES.some((p) => p.value === v);

/**
 * The plant of a farm whose vats are `vatNumbers`, from its stored items: an item for a vat the
 * farm no longer has is left out, a vat nobody described gets the default, and anything outside
 * the catalogue (never stored, but read defensively) counts as not described.
 */
export const plantOf = (items: readonly EquipmentItem[], vatNumbers: readonly number[]): Plant => {
  const pre = items.find((i) => i.type === EQUIPMENT_TYPES.preCooling);
  const vats = [...new Set(vatNumbers)]
    .sort((a, b) => a - b)
    .map((id): PlantVat => {
      const item = items.find((i) => i.type === EQUIPMENT_TYPES.vat && i.id === id);
      const known = item && isVatValue(item.value) && subTypesOf(item.value).some((s) => s.value === item.sub_value);
      return known ? { id, value: item.value as VatValue, sub_value: item.sub_value } : { id, ...DEFAULT_VAT };
    });
  return { preCooling: pre && isPreCoolingValue(pre.value) ? pre.value : 0, vats };
};

/** A plant as the items EQUIPMENT_UPDATE takes and EQUIPMENT_GET answers: the pre-cooling first, then the vats in order. */
export const itemsOf = (plant: Plant): EquipmentItem[] => [
  { type: EQUIPMENT_TYPES.preCooling, id: PRE_COOLING_ID, value: plant.preCooling, sub_value: 0 },
  ...plant.vats.map((v) => ({ type: EQUIPMENT_TYPES.vat, id: v.id, value: v.value, sub_value: v.sub_value })),
];

// ---- What EQUIPMENT_UPDATE accepts ---------------------------------------------------------

/** At most one pre-cooling system and four vats (a controller unit has up to 4, DESIGN). */
const EQUIPMENT_MAX_ITEMS = 5;

/** The messages of a refused equipment list (422, nothing stored). */
export const EQUIPMENT_MESSAGES = {
  notList: 'equipment must be a list of equipment items',
  notItem: 'Each equipment item has type, id, value and sub_value as whole numbers',
  tooMany: `equipment may list at most ${EQUIPMENT_MAX_ITEMS} items`,
  unknownType: (type: unknown) => `Unknown equipment type: ${String(type).slice(0, 20)}`,
  preCoolingId: `The pre-cooling item's id is ${PRE_COOLING_ID}`,
  unknownPreCooling: (value: number) => `Unknown pre-cooling value: ${value}`,
  preCoolingSubValue: 'A pre-cooling item has no sub_value (0)',
  unknownVatValue: (id: number, value: number) => `Vat ${id}: unknown vat value ${value}`,
  unknownSubValue: (id: number, sub: number) => `Vat ${id}: unknown sub_value ${sub}`,
  twoPreCooling: 'equipment lists the pre-cooling system twice',
  twice: (id: number) => `equipment lists Vat ${id} twice`,
  unknownVat: (id: number) => `Vat ${id} is not a vat of this farm.`,
} as const;

/** A whole number as JSON gives it; a form-minded client's "2" is read as 2. */
const wholeNumber = z.preprocess(
  (v) => (typeof v === 'string' && /^\d{1,4}$/.test(v) ? Number(v) : v),
  z.number({ error: EQUIPMENT_MESSAGES.notItem }).int(EQUIPMENT_MESSAGES.notItem).min(0, EQUIPMENT_MESSAGES.notItem).max(9999, EQUIPMENT_MESSAGES.notItem),
);

const inputItemSchema = z
  .strictObject(
    { type: wholeNumber, id: wholeNumber, value: wholeNumber, sub_value: wholeNumber.optional() },
    { error: EQUIPMENT_MESSAGES.notItem },
  )
  .transform((item, ctx): EquipmentItem => {
    const fail = (message: string) => {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    if (item.type === EQUIPMENT_TYPES.preCooling) {
      if (item.id !== PRE_COOLING_ID) return fail(EQUIPMENT_MESSAGES.preCoolingId);
      if (!isPreCoolingValue(item.value)) return fail(EQUIPMENT_MESSAGES.unknownPreCooling(item.value));
      if ((item.sub_value ?? 0) !== 0) return fail(EQUIPMENT_MESSAGES.preCoolingSubValue);
      return { type: EQUIPMENT_TYPES.preCooling, id: PRE_COOLING_ID, value: item.value, sub_value: 0 };
    }
    if (item.type === EQUIPMENT_TYPES.vat) {
      if (!isVatValue(item.value)) return fail(EQUIPMENT_MESSAGES.unknownVatValue(item.id, item.value));
      const sub = item.sub_value ?? 1;
      if (!subTypesOf(item.value).some((s) => s.value === sub)) return fail(EQUIPMENT_MESSAGES.unknownSubValue(item.id, sub));
      return { type: EQUIPMENT_TYPES.vat, id: item.id, value: item.value, sub_value: sub };
    }
    return fail(EQUIPMENT_MESSAGES.unknownType(item.type));
  });

/**
 * The `equipment` of EQUIPMENT_UPDATE: the farm's whole set (it replaces what was stored). Known
 * types, values and sub-values only, each vat once, one pre-cooling system; whether each vat is
 * the farm's the server checks after (it needs the farm).
 */
export const equipmentListSchema = z
  .array(z.unknown(), { error: EQUIPMENT_MESSAGES.notList })
  .max(EQUIPMENT_MAX_ITEMS, EQUIPMENT_MESSAGES.tooMany)
  .pipe(z.array(inputItemSchema))
  .superRefine((items, ctx) => {
    if (items.filter((i) => i.type === EQUIPMENT_TYPES.preCooling).length > 1) ctx.addIssue({ code: 'custom', message: EQUIPMENT_MESSAGES.twoPreCooling });
    const seen = new Set<number>();
    for (const i of items) {
      if (i.type !== EQUIPMENT_TYPES.vat) continue;
      if (seen.has(i.id)) ctx.addIssue({ code: 'custom', message: EQUIPMENT_MESSAGES.twice(i.id) });
      seen.add(i.id);
    }
  });
