import type { Pickup } from '../../shared/api/actions/farmer-pickup';

/**
 * Pickups a farmer entered by hand (farmer §2.14, §3 Pickup), in the Farms table under the farm
 * (`FARM#<id>` / `PICKUP#<UTC datetime>#<vat>`): farm-owned data beside the farm, listed in time order.
 */
export interface PickupRepository {
  /** Stores the pickup; the same vat and time again replaces it (a corrected entry, not a second pickup). */
  putPickup(pickup: Pickup): Promise<void>;
  /** The farm's pickups, oldest first. */
  listPickups(farmId: string): Promise<Pickup[]>;
  /** The farm's pickups at or after `since` (UTC ISO), oldest first: one key-range query (the capacity forecast). */
  listPickupsSince(farmId: string, since: string): Promise<Pickup[]>;
  /** Removes the farm's pickup of this vat and time (UTC ISO); nothing there is not an error. */
  deletePickup(farmId: string, datetime: string, vat: number): Promise<void>;
}
