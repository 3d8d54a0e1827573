import type { MilkLookup } from '../../shared/api/actions/milk-quality';

/**
 * Who looked at which farm's milk data (every lookup by Milk Quality or Westlands staff,
 * or an Admin, is kept and visible to Admins). In the Farms table under `LOOKUP#<farmId>`, listed
 * newest first through gsi1 `ALL#LOOKUP`.
 */
export interface LookupRepository {
  putLookup(lookup: MilkLookup): Promise<void>;
  /** The newest `limit` lookups of every farm, newest first. */
  listLookups(limit: number): Promise<MilkLookup[]>;
}
