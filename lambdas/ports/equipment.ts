import type { EquipmentItem } from '../../shared/entities/equipment';

/**
 * A farm's equipment items (farmer §2.13, §3 Equipment item), in the Farms table beside the farm
 * (`FARM#<id>` / `EQUIPMENT`). The whole set is one item: EQUIPMENT_UPDATE replaces it with one
 * PutItem, so a reader never sees half of an old set and half of a new one (dynalite has no
 * transactions, and none is needed).
 */
export interface EquipmentRepository {
  /** The stored set, or undefined when the farm's plant was never described. */
  getEquipment(farmId: string): Promise<EquipmentItem[] | undefined>;
  /** Replaces the farm's set. */
  putEquipment(farmId: string, items: readonly EquipmentItem[], by: { readonly userId: string; readonly at: string }): Promise<void>;
}
