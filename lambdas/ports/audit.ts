import type { AuditArea, AuditEntry } from '../../shared/entities/audit';
import type { Device } from '../../shared/entities/device';
import type { Farm, Package } from '../../shared/entities/farm';
import type { WatchmanSettings } from '../../shared/watchman/settings';
import type { MilkingWindow } from './milking-windows';

/**
 * The administrative changes, in the Farms table: one partition per page (`AUDIT#user`,
 * `AUDIT#farm`, `AUDIT#device`, `AUDIT#watchman`), sorted by time, so the newest are one Query.
 * Entries are only ever added.
 */
export interface AuditRepository {
  /** An entry alone: for a change that is not an item of ours (a Cognito group), written before the change is asked for. */
  record(area: AuditArea, entry: AuditEntry): Promise<void>;
  /** The newest `limit` entries, newest first, from after `cursor` (the previous page's last). */
  list(area: AuditArea, limit: number, cursor?: string): Promise<AuditPage>;
}

interface AuditPage {
  readonly entries: AuditEntry[];
  /** Where the next (older) page starts; absent on the last page. */
  readonly cursor?: string;
}

/** A farm flag an operator sets (operator §2 Admin farms). */
type FarmFlagName = 'auto_check' | 'fonterra_api_status' | 'harvest';
/** The vat configuration calibration's Apply stores (operator §3 Vat config). */
type VatConfig = Pick<Device, 'vat_size' | 'vat_max_height' | 'vat_diameter' | 'wedgeHeight' | 'vat_volume_offset'>;

/**
 * One operator-side write that is made only with its audit entry. Where a write names `before`,
 * it lands only while the stored value is still that, so the entry's "before" is what was
 * replaced; another operator's change in between makes the commit answer 'conflict'.
 */
export type AuditedWrite =
  /** A farm flag; an operator's API status also holds the dairy sync against Watchman's automatic on (off) or releases it (on). */
  | { readonly kind: 'farmFlag'; readonly farmId: string; readonly flag: FarmFlagName; readonly value: boolean; readonly before: boolean }
  | { readonly kind: 'herd'; readonly userId: string; readonly herd: { readonly enabled: true; readonly tokenId: string } | { readonly enabled: false }; readonly before: 0 | 1 }
  /** The farm's package (it drives billing). */
  | { readonly kind: 'farmPackage'; readonly farmId: string; readonly package: Package; readonly before: Farm['package'] }
  | { readonly kind: 'unitLowConnectivity'; readonly imei: string; readonly value: boolean; readonly before: boolean }
  /** Active (1) or retired (2): a retired device's messages are refused by the ingest. */
  | { readonly kind: 'deviceStatus'; readonly deviceId: string; readonly status: 1 | 2; readonly before: 1 | 2 }
  /** A device's name (its fleet-index key, its listing and the thing it publishes as follow). */
  | { readonly kind: 'deviceName'; readonly device: Device; readonly name: string }
  | { readonly kind: 'vatConfig'; readonly deviceId: string; readonly config: VatConfig }
  | { readonly kind: 'milkingWindow'; readonly window: MilkingWindow }
  | { readonly kind: 'watchmanSettings'; readonly settings: WatchmanSettings };

/** The most writes one commit takes with its entry (DynamoDB's transactions take 100 items; a renamed device is 3). */
export const AUDITED_WRITES_MAX = 96;

/**
 * Operator changes and their audit entry in one transaction (TransactWriteItems): the change is
 * made with its entry or not at all. 'conflict': a write's `before` no longer held, or its item
 * is gone; nothing was written.
 */
export interface AuditedChanges {
  commit(area: AuditArea, entry: AuditEntry, writes: readonly AuditedWrite[]): Promise<'done' | 'conflict'>;
}
