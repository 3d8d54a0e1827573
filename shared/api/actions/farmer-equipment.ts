import * as z from 'zod';
import { equipmentItemSchema, equipmentListSchema } from '../../entities/equipment';
import { access, contract } from '../contract';
import { farmField, jsonField } from '../fields';

/*
 * /api/farmer/equipment (farmer §2.13, §3 Equipment item, §7): the farm's milk-cooling plant and
 * the live values its diagram labels. Catalogue and item rules: shared/entities/equipment.ts.
 */

const PATH = '/api/farmer/equipment';

/** Five items are well under 1,000 characters of JSON; more is junk. */
const EQUIPMENT_TEXT_MAX = 2_000;

/** The live values of one vat on the diagram (farmer §2.13: temp1, agitator_status, milk_volume, vat_size), from the device's last_updated. */
const vatLiveSchema = z.object({
  vat_number: z.number().int(),
  vat_size: z.number(),
  /** When the device reported them; null before its first reading. */
  published_at: z.string().nullable(),
  temp1: z.number().nullable(),
  agitator_status: z.number().nullable(),
  milk_volume: z.number().nullable(),
});
export type VatLive = z.infer<typeof vatLiveSchema>;

/**
 * The spec's `{vat1, vat2}`, and vat3 and vat4 when the farm has them: every vat of the farm
 * appears. vat1 and vat2 are always there, null when the farm has no such vat.
 */
const equipmentDataSchema = z.object({
  vat1: vatLiveSchema.nullable(),
  vat2: vatLiveSchema.nullable(),
  vat3: vatLiveSchema.optional(),
  vat4: vatLiveSchema.optional(),
});
export type EquipmentData = z.infer<typeof equipmentDataSchema>;

export const farmerEquipmentContracts = {
  /** The farm's plant as items: the pre-cooling first, then every vat in order (defaults for what was never described). */
  EQUIPMENT_GET: contract({
    path: PATH,
    type: 'EQUIPMENT_GET',
    input: z.object({ type: z.literal('EQUIPMENT_GET'), farm: farmField }),
    answer: z.array(equipmentItemSchema),
    access: access.farmMember(),
  }),
  /** Replaces the farm's whole set in one write; answers the set as stored. */
  EQUIPMENT_UPDATE: contract({
    path: PATH,
    type: 'EQUIPMENT_UPDATE',
    input: z.object({ type: z.literal('EQUIPMENT_UPDATE'), farm: farmField, equipment: jsonField(equipmentListSchema, 'equipment', EQUIPMENT_TEXT_MAX) }),
    answer: z.array(equipmentItemSchema),
    access: access.farmMember(),
  }),
  EQUIPMENT_DATA_GET: contract({
    path: PATH,
    type: 'EQUIPMENT_DATA_GET',
    input: z.object({ type: z.literal('EQUIPMENT_DATA_GET'), farm: farmField }),
    answer: equipmentDataSchema,
    access: access.farmMember(),
  }),
} as const;
